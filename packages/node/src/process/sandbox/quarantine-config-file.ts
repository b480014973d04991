import { lstatSync, renameSync } from 'node:fs';
import path from 'node:path';

import type { SandboxGitQuarantine } from './quarantine-git-indirections.js';

/** The config file appeared during a sandboxed run and was renamed aside after it. */
export interface SandboxConfigQuarantine {
  readonly kind: 'config_file';
  readonly toolId: string;
  /** The name as the workspace knows it, relative to the workspace root. */
  readonly name: string;
  readonly change: 'appeared';
  /** Where it was moved, relative to the workspace root. */
  readonly quarantinedAs: string;
}

/** What `process.onQuarantine` reports: one name a run left that the host moved aside. */
export type SandboxQuarantineEvent = SandboxGitQuarantine | SandboxConfigQuarantine;

/**
 * The config file is trusted configuration: one a sandboxed program wrote would widen the next
 * host's policy. Where it did not exist when the spawn was prepared nothing can be mounted over
 * it (a mount needs a mount point, and a stub would be left in the user's workspace or removed
 * under another process's sandbox), so once the run has ended one that appeared is renamed aside
 * in the same directory — never deleted, never followed (rename moves the name itself) — and
 * reported. `undefined`: nothing appeared.
 */
export function quarantineConfigFile(
  toolId: string,
  file: string,
  root: string,
): SandboxConfigQuarantine | undefined {
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
  return {
    kind: 'config_file',
    toolId,
    name: path.relative(root, file),
    change: 'appeared',
    quarantinedAs: path.relative(root, target),
  };
}
