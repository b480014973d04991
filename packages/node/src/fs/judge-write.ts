import { realpathSync } from 'node:fs';
import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import type { ToolId } from '@toolhost/core';
import { isOnWriteFloor } from './floor.js';
import type { FloorContext } from './floor.js';
import { resolveRequestedPath } from './requested-path.js';

/** What the judgement needs of the jail: its root, floor, and which writable root holds a path. */
export interface WriteJudgeParts {
  readonly root: string;
  readonly floor: FloorContext;
  /** Throws `refusal` when no writable root contains `target`. */
  readonly containing: (
    toolId: ToolId,
    target: string,
    refusal: 'scope_escape' | 'symlink_refused',
  ) => void;
}

/**
 * The refusals of a write the jail would make, judged before anyone is asked and changing
 * nothing: the requested spelling and its lexical resolution on the write floor or out of the
 * writable roots, then — when the parent directory exists — its real path, which is where the
 * jail's walk lands (`alias -> .git` writes in `.git`). Only what the jail surely refuses is
 * refused here; anything this cannot resolve (a missing parent, an unreadable one) is left to
 * the jail, which judges again on the descriptors it opens.
 */
export function judgeWrite(parts: WriteJudgeParts, toolId: ToolId, requested: string): void {
  const { root, floor, containing } = parts;
  const target = resolveRequestedPath(toolId, root, requested);
  if (isOnWriteFloor(requested, floor) || isOnWriteFloor(target, floor)) {
    throw new ToolPolicyError(toolId, 'protected_path');
  }
  containing(toolId, target, 'scope_escape');
  const parent = realParent(target);
  if (parent === undefined) return;
  // The leaf is never followed by the jail: only the directory it lands in is resolved.
  const written = path.join(parent, path.basename(target));
  if (isOnWriteFloor(written, floor)) throw new ToolPolicyError(toolId, 'protected_path');
  containing(toolId, written, 'symlink_refused');
}

// The parent directory's real path, or undefined when it cannot be read as one (missing, not a
// directory, unreadable): then only the lexical judgement above applies.
function realParent(target: string): string | undefined {
  const parent = path.dirname(target);
  if (parent === target) return undefined;
  try {
    return realpathSync.native(parent);
  } catch {
    return undefined;
  }
}
