import { constants as osConstants } from 'node:os';
import type { Readable } from 'node:stream';

/** How the command inside the sandbox ended, as its waiting init reaped it: one or the other. */
export type WaitRecord =
  | { readonly exitCode: number; readonly exitSignal: null }
  | { readonly exitCode: null; readonly exitSignal: NodeJS.Signals };

/**
 * What a prepared sandbox knows of its command's end: the init's record, `unknown` (the init ran
 * but left no well-formed record: it was killed, or something else wrote), or `no_wait_init`
 * (not built: only bwrap's own code is there).
 */
export type SandboxExitReport = WaitRecord | 'unknown' | 'no_wait_init';

// The init writes at most "signal 64\n"; anything longer is not its record.
const MAX_RECORD_BYTES = 16;
const RECORD = /^(exit|signal) (0|[1-9][0-9]{0,2})\n$/;

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

/**
 * Reads the status channel to its end and returns a getter for the record. Read from the first
 * tick after `spawn`: an unread pipe would never end, and the child's `close` waits for it.
 */
export function collectWaitRecord(stream: Readable): () => WaitRecord | 'unknown' {
  let text = '';
  let overflow = false;
  stream.setEncoding('latin1');
  stream.on('data', (chunk: string) => {
    if (text.length + chunk.length > MAX_RECORD_BYTES) overflow = true;
    else text += chunk;
  });
  // A reset channel is a missing record, not a crash of the host.
  stream.on('error', () => {
    overflow = true;
  });
  return () => (overflow ? 'unknown' : (parseWaitRecord(text) ?? 'unknown'));
}

/**
 * Parses exactly one record, "exit <0-255>\n" or "signal <number>\n", strictly: a second record,
 * a stray byte or a signal Node cannot name is no record at all, never a guess.
 */
export function parseWaitRecord(text: string): WaitRecord | undefined {
  const match = RECORD.exec(text);
  if (match === null) return undefined;
  const value = Number(match[2]);
  if (match[1] === 'exit') return value <= 255 ? { exitCode: value, exitSignal: null } : undefined;
  const exitSignal = SIGNAL_NAMES.get(value);
  return exitSignal === undefined ? undefined : { exitCode: null, exitSignal };
}
