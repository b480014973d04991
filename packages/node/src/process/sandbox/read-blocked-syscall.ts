import { existsSync, readFileSync } from 'node:fs';

/**
 * Where a held process stands, from `/proc/<pid>/syscall`: blocked in a syscall (its number and
 * first argument), `running`, `gone`, or `unreadable` — alive, but the file cannot be read (a
 * kernel without it, a ptrace restriction). The caller must treat `unreadable` as a refusal: a
 * held bwrap reads the end of its block channel as a go, so one mistaken for gone is let run.
 */
export type HeldProcessState =
  | { readonly kind: 'blocked'; readonly call: number; readonly firstArg: number }
  | { readonly kind: 'running' }
  | { readonly kind: 'gone' }
  | { readonly kind: 'unreadable' };

/** `read` is the seam the tests use to make the file fail as a kernel can. */
export function readBlockedSyscall(
  pid: number,
  read: (file: string) => string = (file) => readFileSync(file, 'latin1'),
): HeldProcessState {
  let text: string;
  try {
    text = read(`/proc/${pid}/syscall`);
  } catch {
    // Gone only when the process's directory is gone too; anything else is not knowing.
    return existsSync(`/proc/${pid}`) ? { kind: 'unreadable' } : { kind: 'gone' };
  }
  const [call, first] = text.trim().split(' ');
  // `running` (or nothing a number can be read from): not blocked yet.
  if (call === undefined || first === undefined || !/^\d+$/.test(call)) return { kind: 'running' };
  return { kind: 'blocked', call: Number(call), firstArg: Number.parseInt(first, 16) };
}
