import { lstatSync } from 'node:fs';
import path from 'node:path';

/** Whether anything, even a dangling symlink, is at `target`. */
export function exists(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

/** `value` if it is an absolute path other than `/`. */
export function absoluteOrUndefined(value: string | undefined): string | undefined {
  return value !== undefined && path.isAbsolute(value) && value !== '/' ? value : undefined;
}
