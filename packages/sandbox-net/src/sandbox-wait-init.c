// toolhost-sandbox-wait-init <status-fd> -- <file> [args...]
//
// Runs first inside every sandbox, under bwrap's own PID 1: forks <file>, forwards the signals
// it is sent to it, reaps it, and writes how it ended to <status-fd> (a descriptor the host
// passed in) as one record, "exit <code>\n" or "signal <number>\n", then exits the same way a
// shell would (the code, or 128+signal). bwrap reports both `exit 137` and a SIGKILL as exit code
// 137; this record is how the host tells them apart.
//
// The command's stdio is left exactly as it came. The status descriptor is close-on-exec and
// closed in the child before exec, so the command can neither write a record of its own nor
// hold the channel open. Nothing here ever prints argv: it is the command's and may carry a path
// or a secret. Any failure before the fork prints one fixed line and exits 127 with no record;
// the host reads a missing record as "status unknown", never as a code it made up.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define FAILED 127

// What a terminal or a supervisor would send to stop or nudge the command. SIGKILL and SIGSTOP
// cannot be caught; SIGCHLD is ours.
static const int FORWARDED[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

static volatile pid_t child = 0;

static void fail(const char *reason, int error) __attribute__((noreturn));
static long parse_decimal(const char *text, long max);
static void check_executable(const char *file);
static void forward(int signal_number);
static void close_other_descriptors(int keep);
static void write_record(int status_fd, int status);

int main(int argc, char **argv) {
  if (argc < 4 || strcmp(argv[2], "--") != 0) {
    fail("usage: toolhost-sandbox-wait-init <status-fd> -- <file> [args...]", 0);
  }
  // 0-2 are the command's stdio: a record written there would be mixed into its output.
  long status_fd = parse_decimal(argv[1], INT_MAX);
  if (status_fd < 3) fail("status-fd must be a decimal descriptor number of 3 or more", 0);
  struct stat status_stat;
  if (fstat((int)status_fd, &status_stat) != 0) fail("status-fd is not an open descriptor", errno);
  // execv does no PATH search; a relative name would resolve against whatever the cwd is.
  const char *file = argv[3];
  if (file[0] != '/') fail("file must be an absolute path", 0);
  check_executable(file);
  // Belt and braces with the close in the child: no exec path hands the channel to the command.
  if (fcntl((int)status_fd, F_SETFD, FD_CLOEXEC) != 0) fail("could not set FD_CLOEXEC", errno);

  // Blocked across the fork: a signal that arrives before `child` is known is forwarded once the
  // handlers can see it, not lost, and the child unblocks its own copy before exec.
  sigset_t forwarded, previous;
  sigemptyset(&forwarded);
  for (size_t i = 0; i < sizeof FORWARDED / sizeof FORWARDED[0]; i++) {
    sigaddset(&forwarded, FORWARDED[i]);
  }
  if (sigprocmask(SIG_BLOCK, &forwarded, &previous) != 0) fail("could not block signals", errno);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = forward;
  action.sa_flags = SA_RESTART;
  sigfillset(&action.sa_mask);
  for (size_t i = 0; i < sizeof FORWARDED / sizeof FORWARDED[0]; i++) {
    if (sigaction(FORWARDED[i], &action, NULL) != 0) fail("could not install a handler", errno);
  }

  pid_t pid = fork();
  if (pid < 0) fail("fork failed", errno);
  if (pid == 0) {
    // exec resets the handlers to default but keeps the mask: the command starts as bwrap left it.
    close((int)status_fd);
    sigprocmask(SIG_SETMASK, &previous, NULL);
    execv(file, argv + 3);
    fail("exec failed", errno);
  }
  child = pid;

  // Not dumpable: another process of the same uid in the sandbox cannot open /proc/<pid>/fd/* or
  // attach to this one to write a record in the command's name (seccomp also denies ptrace and
  // pidfd_getfd; this does not rely on it).
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  // Holding a copy of the command's stdio would keep the host's pipes open past the command's
  // own close; any other inherited descriptor (the network handoff) is not ours to keep.
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd <= 2; fd++) {
    if (null >= 0) dup2(null, fd);
    else close(fd);
  }
  close_other_descriptors((int)status_fd);
  // A host that stopped listening makes the record's write fail, not kill us with SIGPIPE (which
  // bwrap would then report as the command's 141).
  signal(SIGPIPE, SIG_IGN);
  sigprocmask(SIG_SETMASK, &previous, NULL);

  int status = 0;
  for (;;) {
    pid_t reaped = waitpid(pid, &status, 0);
    if (reaped == pid) break;
    if (reaped < 0 && errno == EINTR) continue;
    // No status to report; bwrap's code for us stays the only word, and the host knows it is
    // not a record.
    _exit(FAILED);
  }
  write_record((int)status_fd, status);
  close((int)status_fd);
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

// Writes "toolhost-sandbox-wait-init: <reason>[: <strerror>]\n" in one write and exits 127.
static void fail(const char *reason, int error) {
  static const char prefix[] = "toolhost-sandbox-wait-init: ";
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

// An exec that fails in the child still reads "exit 127"; checking first says why, on stderr.
static void check_executable(const char *file) {
  struct stat status;
  if (stat(file, &status) != 0) fail("file cannot be found", errno);
  if (!S_ISREG(status.st_mode)) fail("file is not a regular file", 0);
  if (access(file, X_OK) != 0) fail("file is not executable", errno);
}

static void forward(int signal_number) {
  int saved = errno;
  if (child > 0) kill(child, signal_number);
  errno = saved;
}

static void close_other_descriptors(int keep) {
#ifdef SYS_close_range
  // One call where the kernel has it (5.9+); the loop below covers older kernels.
  if ((keep <= 3 || syscall(SYS_close_range, 3, keep - 1, 0) == 0) &&
      syscall(SYS_close_range, keep + 1, ~0U, 0) == 0) {
    return;
  }
#endif
  long max = sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (int fd = 3; fd < max; fd++) {
    if (fd != keep) close(fd);
  }
}

// One write of a short record: a pipe or socket delivers it whole, so the host never sees half.
static void write_record(int status_fd, int status) {
  char record[32];
  int length = WIFEXITED(status) ? snprintf(record, sizeof record, "exit %d\n", WEXITSTATUS(status))
                                 : snprintf(record, sizeof record, "signal %d\n", WTERMSIG(status));
  if (length <= 0 || (size_t)length >= sizeof record) return;
  ssize_t written;
  do {
    written = write(status_fd, record, (size_t)length);
  } while (written < 0 && errno == EINTR);
}
