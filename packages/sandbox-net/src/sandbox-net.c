// The host's half of the sandbox network handoff: a socket pair whose one end the sandbox
// inherits, the receipt of the one listening descriptor toolhost-sandbox-net-init sends over it,
// and close(). Node can neither make an AF_UNIX pair as bare descriptors nor read SCM_RIGHTS.
//
// Failures carry a negative `errno` (and `syscall` when one failed); index.js names the `code`
// from it, so every errno has its exact name without a table here.
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <node_api.h>

// Room for a few more than the one expected, so extras are counted and closed here. Any beyond
// this are dropped by the kernel with MSG_CTRUNC: never installed, so nothing to close.
#define RECEIVE_CAPACITY 4

typedef enum {
  RECEIVED,
  SYSTEM_FAILED,
  TIMED_OUT,
  PEER_CLOSED,
  NO_DESCRIPTOR,
  EXTRA_DESCRIPTORS,
} receive_outcome;

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  int fd;
  int timeout_ms;
  receive_outcome outcome;
  int received;
  int error;
  const char *syscall;
} receive_request;

static napi_value system_error(napi_env env, int error, const char *syscall, const char *message);
static napi_value invalid_argument(napi_env env, const char *message);
static bool integer_argument(napi_env env, napi_value value, int64_t max, int64_t *result);
static void receive_execute(napi_env env, void *data);
static void receive_complete(napi_env env, napi_status status, void *data);
static receive_outcome receive_once(receive_request *request, int *received);
static int remaining_ms(const struct timespec *deadline);

// socketPair() -> [fd, fd]: AF_UNIX SOCK_STREAM, both close-on-exec. spawn's stdio dup2()s the
// child's end onto a descriptor number without CLOEXEC, so only that copy reaches the child.
static napi_value socket_pair(napi_env env, napi_callback_info info) {
  (void)info;
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    napi_throw(env, system_error(env, errno, "socketpair", "sandbox-net: socketpair failed"));
    return NULL;
  }
  napi_value pair, first, second;
  if (napi_create_array_with_length(env, 2, &pair) != napi_ok ||
      napi_create_int32(env, fds[0], &first) != napi_ok ||
      napi_create_int32(env, fds[1], &second) != napi_ok ||
      napi_set_element(env, pair, 0, first) != napi_ok ||
      napi_set_element(env, pair, 1, second) != napi_ok) {
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  return pair;
}

// receiveFd(fd, timeoutMs) -> Promise<fd>. Waits on a pool thread: the descriptor arrives when
// the init has listened, which is after bwrap set the sandbox up, so not within one tick.
static napi_value receive_fd(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_value promise;
  napi_deferred deferred;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok ||
      napi_create_promise(env, &deferred, &promise) != napi_ok) {
    return NULL;
  }
  int64_t fd = -1, timeout_ms = -1;
  if (argc < 2 || !integer_argument(env, argv[0], INT32_MAX, &fd) ||
      !integer_argument(env, argv[1], INT32_MAX, &timeout_ms)) {
    napi_reject_deferred(
        env, deferred,
        invalid_argument(env, "sandbox-net: receiveFd takes a descriptor and a timeout in ms, "
                              "both non-negative integers"));
    return promise;
  }
  receive_request *request = calloc(1, sizeof *request);
  napi_value name;
  if (request == NULL) {
    napi_reject_deferred(env, deferred,
                         system_error(env, ENOMEM, NULL, "sandbox-net: out of memory"));
    return promise;
  }
  request->deferred = deferred;
  request->fd = (int)fd;
  request->timeout_ms = (int)timeout_ms;
  request->received = -1;
  if (napi_create_string_utf8(env, "toolhost:sandbox-net:receiveFd", NAPI_AUTO_LENGTH, &name) !=
          napi_ok ||
      napi_create_async_work(env, NULL, name, receive_execute, receive_complete, request,
                             &request->work) != napi_ok ||
      napi_queue_async_work(env, request->work) != napi_ok) {
    if (request->work != NULL) napi_delete_async_work(env, request->work);
    free(request);
    napi_reject_deferred(env, deferred,
                         system_error(env, EAGAIN, NULL, "sandbox-net: could not queue receiveFd"));
  }
  return promise;
}

// closeFd(fd): for a received or paired descriptor never given to Node (which closes its own).
static napi_value close_fd(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int64_t fd = -1;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc < 1 || !integer_argument(env, argv[0], INT32_MAX, &fd)) {
    napi_throw(env, invalid_argument(env, "sandbox-net: closeFd takes a non-negative integer"));
    return NULL;
  }
  // EINTR still closed it on Linux; EBADF is the caller's double close, worth hearing about.
  if (close((int)fd) != 0 && errno != EINTR) {
    napi_throw(env, system_error(env, errno, "close", "sandbox-net: close failed"));
  }
  return NULL;
}

static void receive_execute(napi_env env, void *data) {
  (void)env;
  receive_request *request = data;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += request->timeout_ms / 1000;
  deadline.tv_nsec += (long)(request->timeout_ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000L;
  }
  for (;;) {
    struct pollfd ready = {.fd = request->fd, .events = POLLIN};
    int count = poll(&ready, 1, remaining_ms(&deadline));
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) {
      request->outcome = SYSTEM_FAILED;
      request->error = errno;
      request->syscall = "poll";
      return;
    }
    if (count == 0) {
      request->outcome = TIMED_OUT;
      return;
    }
    if (ready.revents & POLLNVAL) {
      request->outcome = SYSTEM_FAILED;
      request->error = EBADF;
      request->syscall = "poll";
      return;
    }
    int error = 0;
    request->outcome = receive_once(request, &error);
    // Woken without data (another reader took it, a signal): wait out the rest of the timeout.
    if (request->outcome == SYSTEM_FAILED && (error == EAGAIN || error == EINTR)) continue;
    request->error = error;
    return;
  }
}

// One recvmsg of one byte; never blocks (the fd may be shared, and poll said it was ready).
static receive_outcome receive_once(receive_request *request, int *error) {
  char payload;
  struct iovec vector = {.iov_base = &payload, .iov_len = 1};
  union {
    struct cmsghdr header;
    char space[CMSG_SPACE(sizeof(int) * RECEIVE_CAPACITY)];
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr message = {
      .msg_iov = &vector,
      .msg_iovlen = 1,
      .msg_control = control.space,
      .msg_controllen = sizeof control.space,
  };
  // CLOEXEC as it is installed: another thread's spawn must never inherit the listener.
  ssize_t length = recvmsg(request->fd, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  if (length < 0) {
    *error = errno;
    request->syscall = "recvmsg";
    return SYSTEM_FAILED;
  }
  int fds[RECEIVE_CAPACITY];
  size_t count = 0;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    size_t carried = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < carried && count < RECEIVE_CAPACITY; i++) {
      memcpy(&fds[count++], CMSG_DATA(header) + i * sizeof(int), sizeof(int));
    }
  }
  if (count > 1 || (message.msg_flags & MSG_CTRUNC)) {
    for (size_t i = 0; i < count; i++) close(fds[i]);
    return EXTRA_DESCRIPTORS;
  }
  if (count == 0) return length == 0 ? PEER_CLOSED : NO_DESCRIPTOR;
  request->received = fds[0];
  return RECEIVED;
}

static void receive_complete(napi_env env, napi_status status, void *data) {
  receive_request *request = data;
  napi_value result = NULL;
  if (status == napi_ok && request->outcome == RECEIVED &&
      napi_create_int32(env, request->received, &result) == napi_ok) {
    napi_resolve_deferred(env, request->deferred, result);
  } else {
    // Nobody will ever hold this number: close it rather than leak a listener.
    if (request->received >= 0) close(request->received);
    switch (status == napi_ok ? request->outcome : SYSTEM_FAILED) {
      case TIMED_OUT:
        result = system_error(env, ETIMEDOUT, NULL,
                              "sandbox-net: no descriptor arrived before the timeout");
        break;
      case PEER_CLOSED:
        result = system_error(env, ECONNRESET, NULL,
                              "sandbox-net: the peer closed the handoff socket without sending a "
                              "descriptor");
        break;
      case NO_DESCRIPTOR:
        result = system_error(env, EPROTO, NULL,
                              "sandbox-net: the handoff message carried no descriptor");
        break;
      case EXTRA_DESCRIPTORS:
        result = system_error(env, EPROTO, NULL,
                              "sandbox-net: the handoff message carried more than one descriptor");
        break;
      default:
        result = system_error(env, request->error != 0 ? request->error : EIO, request->syscall,
                              "sandbox-net: receiving the descriptor failed");
        break;
    }
    napi_reject_deferred(env, request->deferred, result);
  }
  napi_delete_async_work(env, request->work);
  free(request);
}

static int remaining_ms(const struct timespec *deadline) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  int64_t left_ns = (int64_t)(deadline->tv_sec - now.tv_sec) * 1000000000 +
                    (deadline->tv_nsec - now.tv_nsec);
  if (left_ns <= 0) return 0;
  // Rounded up: a partial millisecond read as poll(0) would give up before the deadline.
  int64_t left_ms = (left_ns + 999999) / 1000000;
  return left_ms > INT32_MAX ? INT32_MAX : (int)left_ms;
}

static napi_value system_error(napi_env env, int error, const char *syscall, const char *message) {
  napi_value text, result, number, name;
  if (napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text) != napi_ok ||
      napi_create_error(env, NULL, text, &result) != napi_ok) {
    return NULL;
  }
  if (napi_create_int32(env, -error, &number) == napi_ok) {
    napi_set_named_property(env, result, "errno", number);
  }
  if (syscall != NULL && napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &name) == napi_ok) {
    napi_set_named_property(env, result, "syscall", name);
  }
  return result;
}

static napi_value invalid_argument(napi_env env, const char *message) {
  napi_value code, text, result;
  if (napi_create_string_utf8(env, "ERR_INVALID_ARG_VALUE", NAPI_AUTO_LENGTH, &code) != napi_ok ||
      napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text) != napi_ok ||
      napi_create_type_error(env, code, text, &result) != napi_ok) {
    return NULL;
  }
  return result;
}

// A JS number that is an integer in [0, max]; NaN, fractions, strings and -0.5 are refused.
static bool integer_argument(napi_env env, napi_value value, int64_t max, int64_t *result) {
  napi_valuetype type;
  double number;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_number ||
      napi_get_value_double(env, value, &number) != napi_ok) {
    return false;
  }
  if (!(number >= 0 && number <= (double)max) || (double)(int64_t)number != number) return false;
  *result = (int64_t)number;
  return true;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor properties[] = {
      {"socketPair", NULL, socket_pair, NULL, NULL, NULL, napi_enumerable, NULL},
      {"receiveFd", NULL, receive_fd, NULL, NULL, NULL, napi_enumerable, NULL},
      {"closeFd", NULL, close_fd, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof properties / sizeof properties[0],
                             properties) != napi_ok) {
    return NULL;
  }
  return exports;
}
