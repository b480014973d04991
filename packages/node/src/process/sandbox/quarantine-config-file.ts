import { lstatSync, renameSync } from 'node:fs';
import path from 'node:path';

/** A protected name that appeared during a sandboxed run and was moved aside after it. */
export interface SandboxQuarantine {
  /** The name as the workspace knows it, relative to the workspace root. */
  readonly name: string;
  /** Where it was moved, relative to the workspace root. */
  readonly movedTo: string;
}

/**
 * The config file is trusted configuration: one a sandboxed program wrote would widen the next
 * host's policy. Where it did not exist when the spawn was prepared nothing can be mounted over
 * it (a mount needs a mount point, and a stub would be left in the user's workspace or removed
 * under another process's sandbox), so once the run has ended one that appeared is renamed aside
 * in the same directory — never deleted, never followed (rename moves the name itself) — and
 * reported. `undefined`: nothing appeared.
 */
export function quarantineConfigFile(file: string, root: string): SandboxQuarantine | undefined {
  try {
    lstatSync(file);
  } catch {
    return undefined;
  }
  const suffix = `.toolhost-quarantined-${Date.now()}-${process.pid}`;
  const target = `${file}${suffix}`;
  try {
    renameSync(file, target);
  } catch {
    // Gone again, or the directory refuses: nothing was moved, nothing to report as moved.
    return undefined;
  }
  return { name: path.relative(root, file), movedTo: path.relative(root, target) };
}
