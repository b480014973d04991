import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import type { ToolId } from '@toolhost/core';

// Linux PATH_MAX and NAME_MAX: a longer path fails in the kernel anyway, so refuse it up front.
const MAX_PATH_BYTES = 4096;
const MAX_SEGMENT_BYTES = 255;

/**
 * Refuses a path no jail can judge (NUL, UNC, device namespace, over-long), then resolves it
 * lexically against the root. Every later step works on this absolute path, never the raw one.
 */
export function resolveRequestedPath(toolId: ToolId, root: string, requested: string): string {
  if (typeof requested !== 'string') throw new ToolPolicyError(toolId, 'invalid_path');
  // A NUL truncates the path in C; `\\?\`, `\\.\` and `\\server\share` leave every Windows jail.
  if (requested.includes('\0') || /^[\\/]{2}/.test(requested))
    throw new ToolPolicyError(toolId, 'invalid_path');
  if (Buffer.byteLength(requested) > MAX_PATH_BYTES)
    throw new ToolPolicyError(toolId, 'invalid_path');
  if (requested.split(/[/\\]/).some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES))
    throw new ToolPolicyError(toolId, 'invalid_path');
  return path.resolve(root, requested);
}

/** Separator-aware containment: `/w/app-evil` is not inside `/w/app`. */
export function isInside(base: string, target: string): boolean {
  if (target === base) return true;
  const prefix = base.endsWith(path.sep) ? base : base + path.sep;
  return target.startsWith(prefix);
}

/** The segments of `target` below `base` (which contains it). */
export function segmentsBelow(base: string, target: string): string[] {
  if (target === base) return [];
  // Both come normalised (a root's real path, `path.resolve`'s output): the segments are what
  // follows the base's separator, split. `path.relative` resolves both again, microseconds a
  // read; it still answers any pair where a `.`, `..` or doubled separator is left to resolve.
  const prefix = base.endsWith(path.sep) ? base : base + path.sep;
  if (target.startsWith(prefix)) {
    const segments = target.slice(prefix.length).split(path.sep);
    if (segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..'))
      return segments;
  }
  return path
    .relative(base, target)
    .split(path.sep)
    .filter((segment) => segment !== '');
}
