// Reads a verified directory's regular files relative to its descriptor: openat(2) + fstat +
// pread + close per name, a batch of names per call; and lstats its entries the same way
// (fstatat(2) with AT_SYMLINK_NOFOLLOW) and reads its entries (readdir of "." below it), for
// a listing. Node has no openat; its way round
// (/proc/self/fd/N/name) costs a procfs lookup per file, and each fs call a JS round trip.
// Every check the JavaScript reader makes is made here, in the same order, and every
// descriptor opened is closed before the call returns.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <node_api.h>

// Per-file statuses below zero; above them (>= 0) a status is the length read. A system call's
// failure is -errno (errno is below 4096 on Linux), so these never collide with one.
#define STATUS_TOO_LARGE (-10001)
#define STATUS_NOT_REGULAR (-10002)
#define STATUS_HARD_LINK (-10003)
#define STATUS_BAD_NAME (-10004)

// NAME_MAX is 255 bytes; a longer name cannot exist, so it is refused without a lookup. The
// conversion buffer is larger: a string cut to fit it (by at most a character) is still too long.
#define NAME_MAX_BYTES 255
#define NAME_BYTES 1024

// O_NOFOLLOW: a symlink swapped in is ELOOP, never followed. O_NONBLOCK: a FIFO swapped in
// opens without waiting for a writer (and is then refused as not regular). O_NOCTTY: a
// terminal device never becomes the host's controlling terminal.
static const int FILE_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;

static napi_value throw_type_error(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

// A single path segment: no separator, not a dot-segment, not empty, no NUL inside (the
// conversion would otherwise cut "a\0/.." to "a" and open something the caller did not name).
static int valid_name(const char *name, size_t length) {
  if (length == 0 || length > NAME_MAX_BYTES || strlen(name) != length) return 0;
  if (strchr(name, '/') != NULL) return 0;
  return !(strcmp(name, ".") == 0 || strcmp(name, "..") == 0);
}

// Reads one file into `into` (room for `cap` bytes at least) and gives its status. Stops short
// (returns 1, nothing read, descriptor closed) when it is larger than `room` and `may_stop`.
static int read_one(int dirfd, const char *name, unsigned char *into, size_t cap, size_t room,
                    int may_stop, int32_t *status) {
  int fd = openat(dirfd, name, FILE_FLAGS);
  if (fd < 0) {
    *status = -errno;
    return 0;
  }
  struct stat info;
  if (fstat(fd, &info) != 0) {
    *status = -errno;
  } else if (!S_ISREG(info.st_mode)) {
    *status = STATUS_NOT_REGULAR;
  } else if (info.st_nlink > 1) {
    // A second name for a file that may live outside the root.
    *status = STATUS_HARD_LINK;
  } else if (info.st_size < 0 || (unsigned long long)info.st_size > cap) {
    *status = STATUS_TOO_LARGE;
  } else if (may_stop && (size_t)info.st_size > room) {
    close(fd);
    return 1;
  } else {
    // As much as fstat said, no more: a file growing meanwhile is read as it was.
    size_t size = (size_t)info.st_size;
    size_t length = 0;
    *status = 0;
    while (length < size) {
      ssize_t got = pread(fd, into + length, size - length, (off_t)length);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        *status = -errno;
        break;
      }
      if (got == 0) break;
      length += (size_t)got;
    }
    if (*status == 0) *status = (int32_t)length;
  }
  close(fd);
  return 0;
}

static int get_size(napi_env env, napi_value value, size_t *out) {
  int64_t number;
  if (napi_get_value_int64(env, value, &number) != napi_ok || number < 0) return 0;
  *out = (size_t)number;
  return 1;
}

// readFiles(dirfd, names, start, end, buffer, cap, budget, out) -> the index it stopped at.
// For each names[i], start <= i < end: out[2k] = offset into buffer, out[2k + 1] = status,
// k = i - start. The first file read lands at offset 0 whatever its size (up to cap); a later
// one that would end past `budget` is not read, and the call returns its index.
static napi_value read_files(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 8)
    return throw_type_error(env, "readFiles: eight arguments expected");

  int32_t dirfd;
  napi_valuetype type;
  // A negative number would be AT_FDCWD (or invalid): the lookup must start at a directory.
  if (napi_typeof(env, argv[0], &type) != napi_ok || type != napi_number ||
      napi_get_value_int32(env, argv[0], &dirfd) != napi_ok || dirfd < 0)
    return throw_type_error(env, "readFiles: dirfd must be a descriptor");

  bool is_array;
  uint32_t count;
  if (napi_is_array(env, argv[1], &is_array) != napi_ok || !is_array ||
      napi_get_array_length(env, argv[1], &count) != napi_ok)
    return throw_type_error(env, "readFiles: names must be an array");

  size_t start, end, cap, budget;
  if (!get_size(env, argv[2], &start) || !get_size(env, argv[3], &end) || start > end ||
      end > count)
    return throw_type_error(env, "readFiles: start and end must lie within names");

  bool is_buffer;
  unsigned char *buffer;
  size_t buffer_length;
  if (napi_is_buffer(env, argv[4], &is_buffer) != napi_ok || !is_buffer ||
      napi_get_buffer_info(env, argv[4], (void **)&buffer, &buffer_length) != napi_ok)
    return throw_type_error(env, "readFiles: buffer must be a Buffer");

  if (!get_size(env, argv[5], &cap) || cap > buffer_length || cap > INT32_MAX)
    return throw_type_error(env, "readFiles: cap must fit the buffer");
  // Offsets go back as int32: a budget past that could not be reported.
  if (!get_size(env, argv[6], &budget) || budget > buffer_length || budget > INT32_MAX)
    return throw_type_error(env, "readFiles: budget must fit the buffer");

  bool is_typed;
  napi_typedarray_type array_type;
  size_t slots;
  void *data;
  if (napi_is_typedarray(env, argv[7], &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, argv[7], &array_type, &slots, &data, NULL, NULL) !=
          napi_ok ||
      array_type != napi_int32_array || slots / 2 < end - start)
    return throw_type_error(env, "readFiles: out must be an Int32Array of two slots a name");
  int32_t *out = data;

  // Each file's descriptor is closed before the next name is taken, so the throw for a name
  // that is not a string leaves none open.
  size_t offset = 0;
  size_t index = start;
  for (; index < end; index += 1) {
    napi_value element;
    char name[NAME_BYTES];
    size_t length;
    if (napi_get_element(env, argv[1], (uint32_t)index, &element) != napi_ok ||
        napi_typeof(env, element, &type) != napi_ok || type != napi_string)
      return throw_type_error(env, "readFiles: names must be strings");
    if (napi_get_value_string_utf8(env, element, name, sizeof name, &length) != napi_ok)
      return throw_type_error(env, "readFiles: names must be strings");
    int32_t *slot = out + 2 * (index - start);
    slot[0] = (int32_t)offset;
    if (!valid_name(name, length)) {
      slot[1] = STATUS_BAD_NAME;
      continue;
    }
    size_t room = budget > offset ? budget - offset : 0;
    if (read_one(dirfd, name, buffer + offset, cap, room, offset > 0, &slot[1])) break;
    // A later file is read only where it fits below the budget (<= the buffer's length).
    if (slot[1] > 0) offset += (size_t)slot[1];
  }

  napi_value result;
  if (napi_create_uint32(env, (uint32_t)index, &result) != napi_ok) return NULL;
  return result;
}

// Slots per name in statEntries' output, in this order (see FS_AT_STAT in index.js).
#define STAT_SLOTS 8

// statEntries(dirfd, names, start, end, out) -> end. For each names[i], start <= i < end, the
// k-th run of STAT_SLOTS doubles of out (k = i - start) is: status (0, -errno or
// STATUS_BAD_NAME), st_mode, st_size, mtime seconds, mtime nanoseconds, st_ino, st_dev,
// st_nlink: what lstat gives, as the doubles Node's own Stats holds. Opens nothing.
static napi_value stat_entries(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 5)
    return throw_type_error(env, "statEntries: five arguments expected");

  int32_t dirfd;
  napi_valuetype type;
  // A negative number would be AT_FDCWD (or invalid): the lookup must start at a directory.
  if (napi_typeof(env, argv[0], &type) != napi_ok || type != napi_number ||
      napi_get_value_int32(env, argv[0], &dirfd) != napi_ok || dirfd < 0)
    return throw_type_error(env, "statEntries: dirfd must be a descriptor");

  bool is_array;
  uint32_t count;
  if (napi_is_array(env, argv[1], &is_array) != napi_ok || !is_array ||
      napi_get_array_length(env, argv[1], &count) != napi_ok)
    return throw_type_error(env, "statEntries: names must be an array");

  size_t start, end;
  if (!get_size(env, argv[2], &start) || !get_size(env, argv[3], &end) || start > end ||
      end > count)
    return throw_type_error(env, "statEntries: start and end must lie within names");

  bool is_typed;
  napi_typedarray_type array_type;
  size_t slots;
  void *data;
  if (napi_is_typedarray(env, argv[4], &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, argv[4], &array_type, &slots, &data, NULL, NULL) !=
          napi_ok ||
      array_type != napi_float64_array || slots / STAT_SLOTS < end - start)
    return throw_type_error(env, "statEntries: out must be a Float64Array of eight slots a name");
  double *out = data;

  for (size_t index = start; index < end; index += 1) {
    napi_value element;
    char name[NAME_BYTES];
    size_t length;
    if (napi_get_element(env, argv[1], (uint32_t)index, &element) != napi_ok ||
        napi_typeof(env, element, &type) != napi_ok || type != napi_string ||
        napi_get_value_string_utf8(env, element, name, sizeof name, &length) != napi_ok)
      return throw_type_error(env, "statEntries: names must be strings");
    double *slot = out + STAT_SLOTS * (index - start);
    memset(slot, 0, STAT_SLOTS * sizeof *slot);
    if (!valid_name(name, length)) {
      slot[0] = STATUS_BAD_NAME;
      continue;
    }
    // AT_SYMLINK_NOFOLLOW: a symlink is reported as itself, never the file it points to.
    struct stat entry;
    if (fstatat(dirfd, name, &entry, AT_SYMLINK_NOFOLLOW) != 0) {
      slot[0] = -errno;
      continue;
    }
    slot[1] = (double)entry.st_mode;
    slot[2] = (double)entry.st_size;
    slot[3] = (double)entry.st_mtim.tv_sec;
    slot[4] = (double)entry.st_mtim.tv_nsec;
    slot[5] = (double)entry.st_ino;
    slot[6] = (double)entry.st_dev;
    slot[7] = (double)entry.st_nlink;
  }

  napi_value result;
  if (napi_create_uint32(env, (uint32_t)end, &result) != napi_ok) return NULL;
  return result;
}

// Entry types readEntries gives (FS_AT_ENTRY in index.js); d_type as readdir reports it.
#define ENTRY_OTHER 0
#define ENTRY_FILE 1
#define ENTRY_DIRECTORY 2
#define ENTRY_SYMLINK 3

static int32_t entry_type(int dirfd, const struct dirent *entry) {
  unsigned char type = entry->d_type;
  if (type == DT_UNKNOWN) {
    // A filesystem without d_type: ask lstat, as Node's readdir does; gone means other.
    struct stat info;
    if (fstatat(dirfd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) return ENTRY_OTHER;
    if (S_ISLNK(info.st_mode)) return ENTRY_SYMLINK;
    if (S_ISDIR(info.st_mode)) return ENTRY_DIRECTORY;
    return S_ISREG(info.st_mode) ? ENTRY_FILE : ENTRY_OTHER;
  }
  if (type == DT_LNK) return ENTRY_SYMLINK;
  if (type == DT_DIR) return ENTRY_DIRECTORY;
  return type == DT_REG ? ENTRY_FILE : ENTRY_OTHER;
}

// readEntries(dirfd) -> [name, type, name, type, ...] in readdir's order, `.` and `..` left
// out, or -errno when the directory cannot be read. The directory is opened again as "."
// relative to dirfd (the same inode, never a path), read, and closed before the call returns.
static napi_value read_entries(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t dirfd;
  napi_valuetype type;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_typeof(env, argv[0], &type) != napi_ok || type != napi_number ||
      napi_get_value_int32(env, argv[0], &dirfd) != napi_ok || dirfd < 0)
    return throw_type_error(env, "readEntries: dirfd must be a descriptor");

  napi_value result;
  int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *directory = fd < 0 ? NULL : fdopendir(fd);
  if (directory == NULL) {
    int failure = errno;
    if (fd >= 0) close(fd);
    if (napi_create_int32(env, -failure, &result) != napi_ok) return NULL;
    return result;
  }
  if (napi_create_array(env, &result) != napi_ok) {
    closedir(directory);
    return NULL;
  }
  uint32_t slot = 0;
  int failure = 0;
  for (;;) {
    errno = 0;
    struct dirent *entry = readdir(directory);
    if (entry == NULL) {
      failure = errno;
      break;
    }
    const char *name = entry->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
    napi_value text, kind;
    // Invalid UTF-8 becomes U+FFFD, as in Node's own readdir.
    if (napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &text) != napi_ok ||
        napi_create_int32(env, entry_type(dirfd, entry), &kind) != napi_ok ||
        napi_set_element(env, result, slot, text) != napi_ok ||
        napi_set_element(env, result, slot + 1, kind) != napi_ok) {
      closedir(directory);
      return NULL;
    }
    slot += 2;
  }
  closedir(directory);
  if (failure != 0 && napi_create_int32(env, -failure, &result) != napi_ok) return NULL;
  return result;
}

static int export_function(napi_env env, napi_value exports, const char *name,
                           napi_callback callback) {
  napi_value function;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, NULL, &function) ==
             napi_ok &&
         napi_set_named_property(env, exports, name, function) == napi_ok;
}

NAPI_MODULE_INIT() {
  if (!export_function(env, exports, "readFiles", read_files) ||
      !export_function(env, exports, "statEntries", stat_entries) ||
      !export_function(env, exports, "readEntries", read_entries))
    return NULL;
  return exports;
}
