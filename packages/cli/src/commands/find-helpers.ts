import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The helpers the Node host can use, by purpose. */
export const HELPERS = Object.freeze({
  git: ['git'],
  budgets: ['prlimit'],
  containment: ['unshare', 'bwrap'],
  clipboard: ['wl-paste', 'xclip', 'xsel', 'pbpaste'],
  notify: ['notify-send', 'osascript'],
});

/** Which of the named executables are on PATH (looked up, never run). */
export function findHelpers(
  pathVariable: string | undefined,
  names: readonly string[],
): Record<string, boolean> {
  const directories = (pathVariable ?? '').split(path.delimiter).filter((entry) => entry !== '');
  return Object.fromEntries(
    names.map((name) => [
      name,
      directories.some((directory) => isExecutable(path.join(directory, name))),
    ]),
  );
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
