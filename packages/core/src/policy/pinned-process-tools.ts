// Module-private: only core's own built-ins can be marked, and a copy of one is not marked.
const PINNED: WeakSet<object> = new WeakSet();

/**
 * Marks a process tool whose command is fixed by its own code (`git_status`, `git_commit`), the
 * only kind the registry accepts without a `policyTarget`. Not exported from the package: a
 * `source: 'builtin'` an author can type is no proof, object identity is.
 */
export function markCommandPinned<T extends object>(tool: T): T {
  PINNED.add(tool);
  return tool;
}

/** True for a tool `markCommandPinned` marked (this very object, not a copy). */
export function isCommandPinned(tool: object): boolean {
  return PINNED.has(tool);
}
