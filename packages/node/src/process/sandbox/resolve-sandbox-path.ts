import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * How a path that would shape the sandbox resolved on the host, walked component by component
 * from `/` the way the kernel would — but never through a symlink the sandbox could have made.
 *
 * - `real`: the real path, every symlink on the way one the sandbox cannot write.
 * - `inside`: the walk reached a name in an area the sandbox writes (`at`): the rest is resolved
 *   inside the sandbox's own view, by the kernel there, so it needs no mount (`stopInside` only).
 * - `missing`: a component does not exist.
 * - `workspace_link`: a symlink inside an area the sandbox writes was on the way. Whatever it
 *   points at now, the workspace chose it and can change it between this walk and the mount.
 * - `loop`: more symlinks than the kernel would follow.
 */
export type ResolvedSandboxPath =
  | { readonly kind: 'real'; readonly path: string }
  | { readonly kind: 'inside'; readonly at: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'workspace_link' }
  | { readonly kind: 'loop' };

// The kernel's own limit (MAXSYMLINKS).
const MAX_LINKS = 40;

/**
 * Resolves `target` (absolute) against the host without trusting its text: `..` is taken from
 * the real directory reached so far, never by string normalisation (`/tmp/../bin` is `/bin`
 * only if `/tmp` is a real directory). `writable` are the real paths the sandbox can write (the
 * roots it binds read-write). With `stopInside`, a walk that enters one of them ends there as
 * `inside`; without it, it goes on, still refusing any symlink found there.
 */
export function resolveSandboxPath(
  target: string,
  writable: readonly string[],
  options: { readonly stopInside?: boolean } = {},
): ResolvedSandboxPath {
  if (!path.isAbsolute(target) || target.includes('\0')) return { kind: 'missing' };
  const pending = components(target).reverse();
  let current = '/';
  let links = 0;
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (name === '.') continue;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const candidate = current === '/' ? `/${name}` : `${current}/${name}`;
    const inWritable = isUnderAny(candidate, writable);
    // Whatever is there, symlink or not, the sandbox sees it in its own view and its kernel
    // resolves the rest there: nothing of it reaches a mount.
    if (inWritable && options.stopInside === true) return { kind: 'inside', at: candidate };
    let info;
    try {
      info = lstatSync(candidate);
    } catch {
      return { kind: 'missing' };
    }
    if (info.isSymbolicLink()) {
      if (inWritable) return { kind: 'workspace_link' };
      links += 1;
      if (links > MAX_LINKS) return { kind: 'loop' };
      let link: string;
      try {
        link = readlinkSync(candidate);
      } catch {
        return { kind: 'missing' };
      }
      if (link.startsWith('/')) current = '/';
      pending.push(...components(link).reverse());
      continue;
    }
    current = candidate;
    if (pending.length > 0 && !info.isDirectory()) return { kind: 'missing' };
  }
  return { kind: 'real', path: current };
}

/** Whether `target` is `base` or below it; both real, absolute, without a trailing slash. */
export function isUnder(target: string, base: string): boolean {
  return base === '/' || target === base || target.startsWith(`${base}/`);
}

export function isUnderAny(target: string, bases: readonly string[]): boolean {
  return bases.some((base) => isUnder(target, base));
}

function components(text: string): string[] {
  return text.split('/').filter((part) => part !== '');
}
