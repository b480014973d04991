// Loads the native addon, or reports `undefined` when it was not built. Never throws: the
// caller falls back to its JavaScript path, which keeps every check.
export function loadFsAt() {
  return undefined;
}
