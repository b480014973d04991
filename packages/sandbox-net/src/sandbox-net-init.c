// toolhost-sandbox-net-init <handoff-fd> <port> -- <file> [args...]
//
// Runs first inside the sandbox, in its network namespace: listens on 127.0.0.1:<port> there,
// hands the listener to the host over <handoff-fd> (an inherited AF_UNIX socket, SCM_RIGHTS),
// closes both and execs <file>. The host accepts on that listener, so a connection made inside
// the sandbox arrives outside it with no socket path and no relay process inside.
//
// Every failure before the handoff prints one fixed line and exits 127 having sent nothing: the
// host's end then reads EOF instead of waiting for a descriptor that will never come. The line
// never quotes argv, which is the sandboxed command's and may carry a path or a secret.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

// What a shell reports for a command it could not run; the host cannot tell it from the
// command's own 127, so every reason goes to stderr too.
#define FAILED 127
#define BACKLOG 128

static void fail(const char *reason, int error) __attribute__((noreturn));
static long parse_decimal(const char *text, long max);
static void check_handoff(int handoff);
static void check_executable(const char *file);
static int listen_on_loopback(int port);
static void hand_over(int handoff, int listener);
static void close_or_fail(int fd, const char *reason);

int main(int argc, char **argv) {
  if (argc < 5 || strcmp(argv[3], "--") != 0) {
    fail("usage: toolhost-sandbox-net-init <handoff-fd> <port> -- <file> [args...]", 0);
  }
  // 0-2 are the command's stdio: closing one after the handoff would take it from the command.
  long handoff = parse_decimal(argv[1], INT_MAX);
  if (handoff < 3) fail("handoff-fd must be a decimal descriptor number of 3 or more", 0);
  // 0 lets the kernel choose (the host reads the port off the listener); the sandbox's own
  // namespace is empty, so the host normally names a fixed port its proxy settings point at.
  long port = parse_decimal(argv[2], 65535);
  if (port < 0) fail("port must be a decimal number from 0 to 65535", 0);
  // execv does no PATH search; a relative name would resolve against whatever the cwd is.
  const char *file = argv[4];
  if (file[0] != '/') fail("file must be an absolute path", 0);

  check_handoff((int)handoff);
  // exec failing after the handoff would look like a started command to the host; most reasons
  // it would fail are visible now, while a failure still means EOF on the handoff.
  check_executable(file);
  int listener = listen_on_loopback((int)port);
  hand_over((int)handoff, listener);
  // The command gets neither: the listener is the host's now, and the handoff socket would let
  // it pass descriptors of its own choosing to the host.
  close_or_fail(listener, "could not close the listener");
  close_or_fail((int)handoff, "could not close the handoff socket");

  execv(file, argv + 4);
  fail("exec failed", errno);
}

// Writes "toolhost-sandbox-net-init: <reason>[: <strerror>]\n" in one write and exits 127.
static void fail(const char *reason, int error) {
  static const char prefix[] = "toolhost-sandbox-net-init: ";
  char line[512];
  size_t length = 0;
  const char *parts[] = {prefix, reason, error != 0 ? ": " : "", error != 0 ? strerror(error) : ""};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    size_t part = strlen(parts[i]);
    if (part > sizeof line - 1 - length) part = sizeof line - 1 - length;
    memcpy(line + length, parts[i], part);
    length += part;
  }
  line[length++] = '\n';
  ssize_t written = write(STDERR_FILENO, line, length);
  (void)written;
  _exit(FAILED);
}

// A strict decimal: digits only, no sign, no leading zero, no spaces, at most `max`. Returns -1
// for anything else, so "3 ", "+3", "03" or "0x3" are refused rather than read as 3.
static long parse_decimal(const char *text, long max) {
  if (text[0] == '\0' || (text[0] == '0' && text[1] != '\0')) return -1;
  long value = 0;
  for (const char *digit = text; *digit != '\0'; digit++) {
    if (*digit < '0' || *digit > '9') return -1;
    if (value > (max - (*digit - '0')) / 10) return -1;
    value = value * 10 + (*digit - '0');
  }
  return value;
}

// sendmsg would fail on anything else too, but only after the listener exists; this says why.
static void check_handoff(int handoff) {
  struct stat status;
  if (fstat(handoff, &status) != 0) fail("handoff-fd is not an open descriptor", errno);
  if (!S_ISSOCK(status.st_mode)) fail("handoff-fd is not a socket", 0);
  int domain = 0;
  socklen_t size = sizeof domain;
  if (getsockopt(handoff, SOL_SOCKET, SO_DOMAIN, &domain, &size) != 0) {
    fail("could not inspect the handoff socket", errno);
  }
  if (domain != AF_UNIX) fail("handoff-fd is not an AF_UNIX socket", 0);
}

static void check_executable(const char *file) {
  struct stat status;
  if (stat(file, &status) != 0) fail("file cannot be found", errno);
  if (!S_ISREG(status.st_mode)) fail("file is not a regular file", 0);
  if (access(file, X_OK) != 0) fail("file is not executable", errno);
}

// Loopback only: the listener must never be reachable from outside the sandbox's namespace,
// which has no other interface to reach it through anyway.
static int listen_on_loopback(int port) {
  // CLOEXEC as well as the close before exec: no path out of here leaks it to the command.
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) fail("could not create the listening socket", errno);
  // A fixed port re-used by the next command in the same namespace must not wait out TIME_WAIT.
  int on = 1;
  if (setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) {
    fail("could not set SO_REUSEADDR", errno);
  }
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((unsigned short)port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0) {
    fail("could not bind 127.0.0.1 to the port", errno);
  }
  if (listen(listener, BACKLOG) != 0) fail("could not listen", errno);
  return listener;
}

// One byte of payload carries exactly one descriptor: a stream socket sends no ancillary data
// without at least one byte of data.
static void hand_over(int handoff, int listener) {
  char payload = 'L';
  struct iovec vector = {.iov_base = &payload, .iov_len = 1};
  union {
    struct cmsghdr header;
    char space[CMSG_SPACE(sizeof(int))];
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr message = {
      .msg_iov = &vector,
      .msg_iovlen = 1,
      .msg_control = control.space,
      .msg_controllen = sizeof control.space,
  };
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(header), &listener, sizeof(int));
  ssize_t sent;
  // MSG_NOSIGNAL: a host that already closed its end makes this a reported failure with exit
  // 127, not a death by SIGPIPE.
  do {
    sent = sendmsg(handoff, &message, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  if (sent < 0) fail("could not send the listener to the host", errno);
  if (sent != 1) fail("could not send the listener to the host", 0);
}

static void close_or_fail(int fd, const char *reason) {
  // On Linux the descriptor is gone even when close reports EINTR; retrying could close another.
  if (close(fd) != 0 && errno != EINTR) fail(reason, errno);
}
