// Starts a child in a fresh PID namespace without an extra fork + exec: the calling thread's
// pid_for_children moves to a new namespace for exactly one synchronous spawn, then moves back.
// Only the calling thread is affected (the namespace proxy is per thread), so libuv's pool
// threads and other workers never fork into it.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>
#include <node_api.h>

// The thread's own active namespace. pid_for_children never names a namespace the thread is
// not allowed to return to: setns() to the active one (or a descendant) is always permitted.
static const char *const ACTIVE_NAMESPACE = "/proc/thread-self/ns/pid";

static napi_value int_value(napi_env env, int value) {
  napi_value result;
  if (napi_create_int32(env, value, &result) != napi_ok) return NULL;
  return result;
}

// enter() -> fd of the thread's active namespace (>= 0) on success, -errno on failure. On
// failure the thread is unchanged.
static napi_value enter(napi_env env, napi_callback_info info) {
  (void)info;
  int fd = open(ACTIVE_NAMESPACE, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return int_value(env, -errno);
  // Rehearse the way back before leaving: if setns() to our own namespace is refused now
  // (no CAP_SYS_ADMIN, a seccomp filter), refuse to enter rather than strand the thread.
  if (setns(fd, CLONE_NEWPID) != 0 || unshare(CLONE_NEWPID) != 0) {
    int error = errno;
    close(fd);
    return int_value(env, -error);
  }
  return int_value(env, fd);
}

// leave(fd) -> 0, or -errno when the thread could not be moved back. The fd is closed either way.
static napi_value leave(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    return int_value(env, -EBADF);
  }
  int rc = setns(fd, CLONE_NEWPID);
  int error = errno;
  if (rc != 0) {
    // A descriptor lost in between (another thread closed the number): the path names the
    // same namespace, so one retry through a fresh descriptor.
    int again = open(ACTIVE_NAMESPACE, O_RDONLY | O_CLOEXEC);
    if (again >= 0) {
      rc = setns(again, CLONE_NEWPID);
      error = errno;
      close(again);
    }
  }
  close(fd);
  return int_value(env, rc == 0 ? 0 : -error);
}

NAPI_MODULE_INIT() {
  napi_value function;
  if (napi_create_function(env, "enter", NAPI_AUTO_LENGTH, enter, NULL, &function) != napi_ok ||
      napi_set_named_property(env, exports, "enter", function) != napi_ok ||
      napi_create_function(env, "leave", NAPI_AUTO_LENGTH, leave, NULL, &function) != napi_ok ||
      napi_set_named_property(env, exports, "leave", function) != napi_ok) {
    return NULL;
  }
  return exports;
}
