import { closeSync } from 'node:fs';
import type { DirectoryRef } from './descriptor-path.js';
import type { Jail } from './jail.js';
import type { OpenedDescriptor } from './verify-descriptor.js';

/** A directory to reopen below the start: its components, and its identity when it was listed. */
export interface PendingDirectory {
  readonly segments: readonly string[];
  /** The directory as lstat saw it when it was listed: the one reopened must be the same. */
  readonly seen: { readonly dev: number; readonly ino: number };
}

/** The open descriptors from the start down to the last directory listed. */
export function createOpenChain(jail: Jail, start: DirectoryRef) {
  const names: string[] = [];
  const opened: OpenedDescriptor[] = [];
  // A failed close is held until the walk's end, which throws it: the walk goes on meanwhile.
  let closeFailure: { readonly error: unknown } | undefined;

  const closeFrom = (depth: number): void => {
    while (opened.length > depth) {
      names.pop();
      const entry = opened.pop();
      if (entry === undefined) continue;
      try {
        closeSync(entry.fd);
      } catch (error) {
        closeFailure ??= { error };
      }
    }
  };

  return {
    open(pending: PendingDirectory): DirectoryRef | undefined {
      const { segments } = pending;
      let shared = 0;
      while (
        shared < names.length &&
        shared < segments.length &&
        names[shared] === segments[shared]
      )
        shared += 1;
      closeFrom(shared);
      for (let depth = shared; depth < segments.length; depth += 1) {
        const name = segments[depth] ?? '';
        const parent = opened[depth - 1] ?? start;
        // The walk's own per-entry check: O_NOFOLLOW|O_DIRECTORY below the parent's descriptor,
        // then verified in the jail; a swap since the listing makes it refuse, never follow.
        const child = jail.openChildDirectorySync(parent, name);
        if (child === undefined) return undefined;
        names.push(name);
        opened.push(child);
      }
      const directory = opened[segments.length - 1];
      if (directory === undefined) return undefined;
      // Renamed or replaced since it was listed: not the directory the listing named.
      const { dev, ino } = directory.stats;
      return dev === pending.seen.dev && ino === pending.seen.ino ? directory : undefined;
    },
    close(): void {
      closeFrom(0);
      if (closeFailure !== undefined) throw closeFailure.error;
    },
  };
}
