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
#include <stdlib.h>
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

// One name's run of STAT_SLOTS doubles: status (0, -errno or STATUS_BAD_NAME), then what
// lstat gives (see statEntries).
static void stat_one(int dirfd, const char *name, size_t length, double *slot) {
  memset(slot, 0, STAT_SLOTS * sizeof *slot);
  if (!valid_name(name, length)) {
    slot[0] = STATUS_BAD_NAME;
    return;
  }
  // AT_SYMLINK_NOFOLLOW: a symlink is reported as itself, never the file it points to.
  struct stat entry;
  if (fstatat(dirfd, name, &entry, AT_SYMLINK_NOFOLLOW) != 0) {
    slot[0] = -errno;
    return;
  }
  slot[1] = (double)entry.st_mode;
  slot[2] = (double)entry.st_size;
  slot[3] = (double)entry.st_mtim.tv_sec;
  slot[4] = (double)entry.st_mtim.tv_nsec;
  slot[5] = (double)entry.st_ino;
  slot[6] = (double)entry.st_dev;
  slot[7] = (double)entry.st_nlink;
}

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
    stat_one(dirfd, name, length, out + STAT_SLOTS * (index - start));
  }

  napi_value result;
  if (napi_create_uint32(env, (uint32_t)end, &result) != napi_ok) return NULL;
  return result;
}

// statJoined(dirfd, joined, count, start, end, out) -> end: statEntries over the names of
// `joined`, which holds exactly `count` names, each ended by a NUL but the last. One string
// crosses into C for a whole level instead of one per name (~170 ns each, a tenth of a
// listing's lookups). A name holding a NUL would shift every later one: `joined` must then
// split into another count, and is refused before anything is looked up.
static napi_value stat_joined(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 6)
    return throw_type_error(env, "statJoined: six arguments expected");

  int32_t dirfd;
  napi_valuetype type;
  if (napi_typeof(env, argv[0], &type) != napi_ok || type != napi_number ||
      napi_get_value_int32(env, argv[0], &dirfd) != napi_ok || dirfd < 0)
    return throw_type_error(env, "statJoined: dirfd must be a descriptor");

  size_t bytes;
  if (napi_typeof(env, argv[1], &type) != napi_ok || type != napi_string ||
      napi_get_value_string_utf8(env, argv[1], NULL, 0, &bytes) != napi_ok)
    return throw_type_error(env, "statJoined: joined must be a string");

  size_t count, start, end;
  if (!get_size(env, argv[2], &count) || !get_size(env, argv[3], &start) ||
      !get_size(env, argv[4], &end) || start > end || end > count)
    return throw_type_error(env, "statJoined: start and end must lie within the count");

  bool is_typed;
  napi_typedarray_type array_type;
  size_t slots;
  void *data;
  if (napi_is_typedarray(env, argv[5], &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, argv[5], &array_type, &slots, &data, NULL, NULL) !=
          napi_ok ||
      array_type != napi_float64_array || slots / STAT_SLOTS < end - start)
    return throw_type_error(env, "statJoined: out must be a Float64Array of eight slots a name");
  double *out = data;

  char *text = malloc(bytes + 1);
  if (text == NULL) return throw_type_error(env, "statJoined: out of memory");
  size_t length;
  if (napi_get_value_string_utf8(env, argv[1], text, bytes + 1, &length) != napi_ok ||
      length != bytes) {
    free(text);
    return throw_type_error(env, "statJoined: joined must be a string");
  }
  // The count first: a mismatch means the names are not the ones the caller counted.
  size_t pieces = count == 0 ? 0 : 1;
  for (size_t at = 0; at < length; at += 1)
    if (text[at] == '\0') pieces += 1;
  if (pieces != count || (count == 0 && length != 0)) {
    free(text);
    return throw_type_error(env, "statJoined: joined must hold exactly count names");
  }

  size_t at = 0;
  for (size_t index = 0; index < end; index += 1) {
    // Each name is NUL-ended in place (the last by the terminator the conversion wrote).
    const char *name = text + at;
    size_t name_length = strlen(name);
    at += name_length + 1;
    if (index >= start) stat_one(dirfd, name, name_length, out + STAT_SLOTS * (index - start));
  }
  free(text);

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

// The names of one directory as read, before they become JavaScript values: NUL-terminated in
// `text`, each at `offsets[i]` with its entry type in `types[i]`.
struct entry_list {
  char *text;
  size_t text_used, text_room;
  size_t *offsets;
  int32_t *types;
  size_t count, room;
  int ascii;
};

static void free_entry_list(struct entry_list *list) {
  free(list->text);
  free(list->offsets);
  free(list->types);
}

// 0 on success, -ENOMEM when the list cannot grow (it is then freed by the caller).
static int push_entry(struct entry_list *list, const char *name, int32_t type) {
  size_t length = strlen(name) + 1;
  if (list->text_used + length > list->text_room) {
    size_t room = list->text_room == 0 ? 4096 : list->text_room * 2;
    while (room < list->text_used + length) room *= 2;
    char *text = realloc(list->text, room);
    if (text == NULL) return -ENOMEM;
    list->text = text;
    list->text_room = room;
  }
  if (list->count == list->room) {
    size_t room = list->room == 0 ? 64 : list->room * 2;
    size_t *offsets = realloc(list->offsets, room * sizeof *offsets);
    if (offsets == NULL) return -ENOMEM;
    list->offsets = offsets;
    int32_t *types = realloc(list->types, room * sizeof *types);
    if (types == NULL) return -ENOMEM;
    list->types = types;
    list->room = room;
  }
  for (const char *at = name; *at != '\0'; at += 1)
    if ((unsigned char)*at >= 0x80) list->ascii = 0;
  memcpy(list->text + list->text_used, name, length);
  list->offsets[list->count] = list->text_used;
  list->types[list->count] = type;
  list->text_used += length;
  list->count += 1;
  return 0;
}

// Orders two indices of a list (qsort_r's context) by their names' bytes.
static int compare_names(const void *left, const void *right, void *context) {
  const struct entry_list *list = context;
  const char *a = list->text + list->offsets[*(const size_t *)left];
  const char *b = list->text + list->offsets[*(const size_t *)right];
  return strcmp(a, b);
}

// Reads the directory dirfd is open on into `list`: opened again as "." relative to dirfd (the
// same inode, never a path), read to the end and closed. 0, or the errno that stopped it (the
// list is then freed).
static int collect_entries(int dirfd, struct entry_list *list) {
  int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *directory = fd < 0 ? NULL : fdopendir(fd);
  if (directory == NULL) {
    int failure = errno;
    if (fd >= 0) close(fd);
    return failure;
  }
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
    if (push_entry(list, name, entry_type(dirfd, entry)) != 0) {
      failure = ENOMEM;
      break;
    }
  }
  closedir(directory);
  if (failure != 0) free_entry_list(list);
  return failure;
}

static int get_dirfd(napi_env env, napi_callback_info info, int32_t *dirfd) {
  size_t argc = 1;
  napi_value argv[1];
  napi_valuetype type;
  return napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1 &&
         napi_typeof(env, argv[0], &type) == napi_ok && type == napi_number &&
         napi_get_value_int32(env, argv[0], dirfd) == napi_ok && *dirfd >= 0;
}

static napi_value errno_value(napi_env env, int failure) {
  napi_value result;
  if (napi_create_int32(env, -failure, &result) != napi_ok) return NULL;
  return result;
}

// readEntries(dirfd) -> [name, type, name, type, ...] in readdir's order, `.` and `..` left
// out, or -errno when the directory cannot be read (see collect_entries).
static napi_value read_entries(napi_env env, napi_callback_info info) {
  int32_t dirfd;
  if (!get_dirfd(env, info, &dirfd))
    return throw_type_error(env, "readEntries: dirfd must be a descriptor");
  struct entry_list list = {NULL, 0, 0, NULL, NULL, 0, 0, 1};
  int failure = collect_entries(dirfd, &list);
  if (failure != 0) return errno_value(env, failure);
  napi_value result;
  int made = napi_create_array_with_length(env, list.count * 2, &result) == napi_ok;
  for (size_t index = 0; made && index < list.count; index += 1) {
    napi_value text, kind;
    // Invalid UTF-8 becomes U+FFFD, as in Node's own readdir.
    made = napi_create_string_utf8(env, list.text + list.offsets[index], NAPI_AUTO_LENGTH,
                                   &text) == napi_ok &&
           napi_create_int32(env, list.types[index], &kind) == napi_ok &&
           napi_set_element(env, result, (uint32_t)(2 * index), text) == napi_ok &&
           napi_set_element(env, result, (uint32_t)(2 * index + 1), kind) == napi_ok;
  }
  free_entry_list(&list);
  return made ? result : NULL;
}

// listEntries(dirfd) -> [names, types] or -errno: readEntries in two values, not two a name.
// `types` is a string of one digit an entry (its ENTRY_* type). When every name is ASCII they
// come in byte order (their code-unit order: the caller's sort then finds them sorted) and
// `names` is one string, the names joined by NUL (which no name holds); otherwise they keep
// readdir's order (two names that are not UTF-8 may read as the same string, and their order
// must stay the kernel's) and `names` is an array of strings.
static napi_value list_entries(napi_env env, napi_callback_info info) {
  int32_t dirfd;
  if (!get_dirfd(env, info, &dirfd))
    return throw_type_error(env, "listEntries: dirfd must be a descriptor");
  struct entry_list list = {NULL, 0, 0, NULL, NULL, 0, 0, 1};
  int failure = collect_entries(dirfd, &list);
  if (failure != 0) return errno_value(env, failure);
  size_t count = list.count;
  size_t *order = malloc((count == 0 ? 1 : count) * sizeof *order);
  char *digits = malloc(count + 1);
  if (order == NULL || digits == NULL) {
    free(order);
    free(digits);
    free_entry_list(&list);
    return errno_value(env, ENOMEM);
  }
  for (size_t index = 0; index < count; index += 1) order[index] = index;
  // qsort_r, not a static context: worker threads may list at once.
  if (list.ascii && count > 1) qsort_r(order, count, sizeof *order, compare_names, &list);
  napi_value result, names, types;
  int made = 1;
  if (list.ascii) {
    // The names in their new order, each NUL replaced in place: the text is rebuilt in order.
    char *joined = malloc(list.text_used == 0 ? 1 : list.text_used);
    size_t used = 0;
    made = joined != NULL;
    for (size_t slot = 0; made && slot < count; slot += 1) {
      const char *name = list.text + list.offsets[order[slot]];
      size_t length = strlen(name);
      memcpy(joined + used, name, length);
      used += length;
      if (slot + 1 < count) joined[used++] = '\0';
    }
    made = made && napi_create_string_latin1(env, joined, used, &names) == napi_ok;
    free(joined);
  } else {
    made = napi_create_array_with_length(env, count, &names) == napi_ok;
    for (size_t slot = 0; made && slot < count; slot += 1) {
      napi_value text;
      // Invalid UTF-8 becomes U+FFFD, as in Node's own readdir.
      made = napi_create_string_utf8(env, list.text + list.offsets[order[slot]],
                                     NAPI_AUTO_LENGTH, &text) == napi_ok &&
             napi_set_element(env, names, (uint32_t)slot, text) == napi_ok;
    }
  }
  for (size_t slot = 0; slot < count; slot += 1)
    digits[slot] = (char)('0' + list.types[order[slot]]);
  made = made && napi_create_string_latin1(env, digits, count, &types) == napi_ok &&
         napi_create_array_with_length(env, 2, &result) == napi_ok &&
         napi_set_element(env, result, 0, names) == napi_ok &&
         napi_set_element(env, result, 1, types) == napi_ok;
  free(order);
  free(digits);
  free_entry_list(&list);
  return made ? result : NULL;
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
      !export_function(env, exports, "statJoined", stat_joined) ||
      !export_function(env, exports, "readEntries", read_entries) ||
      !export_function(env, exports, "listEntries", list_entries))
    return NULL;
  return exports;
}
