import { createHash, timingSafeEqual } from 'node:crypto';

import type { EffectKey, JournalState, SettledEffect } from '@toolhost/core/journal';

import { keyedDigest } from './journal-key.js';

// What the SQLite and the PostgreSQL journal share above their statements: how a stored row is
// judged against a call, how its record is read back, and the argument checks of the operator
// tools. One copy, so the two journals cannot drift apart on what counts as a replay.

/** The columns a lookup reads, as both drivers hand them back. */
export interface EffectRow {
  readonly tool_id: string;
  readonly args_mac: Buffer;
  readonly claim_id: string;
  readonly state: 'prepared' | 'settled';
  readonly record: string | null;
}

/** Builds the driver's own typed error for a record that does not parse. */
export type CorruptRecordError = (cause?: unknown) => Error;

const ABSENT: JournalState = { kind: 'absent' };
const MISMATCH: JournalState = { kind: 'mismatch' };

/** SHA-256 for the engine's argument digest: synchronous, unlike WebCrypto's (~50 µs). */
export const journalSha256 = (data: Uint8Array): Uint8Array =>
  new Uint8Array(createHash('sha256').update(data).digest());

/**
 * The keyed MAC of an argument digest, remembered for the last digest: the engine looks a call
 * up and then prepares it, and one HMAC (~8 µs) serves both.
 */
export function argsMacMemo(key: Buffer): (argsDigest: string) => Buffer {
  let last: { readonly argsDigest: string; readonly mac: Buffer } | undefined;
  return (argsDigest) => {
    if (last?.argsDigest !== argsDigest) last = { argsDigest, mac: keyedDigest(key, argsDigest) };
    return last.mac;
  };
}

/** A stored row judged against a call: absent, a mismatch, a claim in flight, or a replay. */
export function judgeEffectRow(
  row: EffectRow | undefined,
  effect: EffectKey,
  macOf: (argsDigest: string) => Buffer,
  corrupt: CorruptRecordError,
): JournalState {
  if (row === undefined) return ABSENT;
  // Another tool or other effective arguments under the same call id is never a replay.
  const mac = macOf(effect.argsDigest);
  const sameArgs = row.args_mac.length === mac.length && timingSafeEqual(row.args_mac, mac);
  if (row.tool_id !== effect.toolId || !sameArgs) return MISMATCH;
  if (row.state === 'prepared') return { kind: 'prepared', claimId: row.claim_id };
  return { kind: 'settled', record: parseEffectRecord(row.record, corrupt) };
}

function parseEffectRecord(text: string | null, corrupt: CorruptRecordError): SettledEffect {
  let record: unknown;
  try {
    record = text === null ? null : JSON.parse(text);
  } catch (error) {
    throw corrupt(error);
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw corrupt();
  return record as SettledEffect;
}

/** `resolve`'s outcome argument comes from an operator's command line: only the two words. */
export function assertResolveAs(as: unknown): asserts as is 'done' | 'failed' {
  if (as !== 'done' && as !== 'failed') {
    throw new TypeError("toolhost: resolve takes 'done' or 'failed'");
  }
}

/** `gc`'s window: finite and non-negative, or nothing is deleted. */
export function assertGcWindow(olderThanMs: number, now: number): void {
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0 || !Number.isFinite(now)) {
    throw new TypeError('toolhost: gc needs a finite, non-negative olderThanMs');
  }
}
