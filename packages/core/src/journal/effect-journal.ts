import type { ToolId } from '../tool-def.js';

/**
 * The identity of one side effect: which call of which run, of which tool, on exactly which
 * effective arguments. `callKey` is the tool call's `id`; `argsDigest` is the engine's digest of
 * the canonical encoding of the complete effective arguments (config-only values and
 * secret-tainted keys included), so a changed pinned `cwd`, endpoint or credential is never
 * taken for a replay. A store that persists keys must key that digest at rest (HMAC).
 */
export interface EffectKey {
  readonly runId: string;
  readonly callKey: string;
  readonly toolId: ToolId;
  readonly argsDigest: string;
}

/** A JSON value: what a settled record may hold, and all a replay can give back. */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** What a settled effect recorded: JSON only, enough to answer a replay exactly. */
export type SettledEffect = { readonly [key: string]: JsonValue };

/**
 * Where a call stands in the journal. `mismatch`: a claim exists for this runId + callKey but
 * under another toolId or argsDigest (a store keeping only a keyed digest cannot hand the
 * stored one back for the engine to compare); the engine fails it as journal_identity_mismatch.
 */
export type JournalState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'prepared'; readonly claimId: string }
  | { readonly kind: 'settled'; readonly record: SettledEffect }
  | { readonly kind: 'mismatch' };

/** The durable effect journal seam: a claim made durable before the effect, settled after it. */
export interface EffectJournal {
  /**
   * The claim held for `key.runId` + `key.callKey`, judged against the rest of `key` (`mismatch`
   * when its toolId or argsDigest differ). A rejection refuses the call before any effect.
   */
  lookup(key: EffectKey): Promise<JournalState>;
  /** Durable before it resolves; rejects when another claim for the same call exists. */
  prepare(key: EffectKey): Promise<{ readonly claimId: string }>;
  /**
   * Records a prepared claim's outcome, durably; rejects for an unknown or already settled claim.
   * A rejection leaves the claim prepared (unresolved); the engine never retries it in a loop.
   */
  settle(claimId: string, record: SettledEffect): Promise<void>;
  /**
   * Removes a prepared claim no effect followed; rejects for a settled one (history is never
   * discarded). A rejection leaves the claim prepared, so the call reads as unresolved.
   */
  discard(claimId: string): Promise<void>;
  /**
   * A synchronous SHA-256 the store can offer (node:crypto's): the engine then digests the
   * arguments and derives the idempotency key with it instead of WebCrypto's, whose async hop
   * costs ~50 µs a digest against ~4 µs. Absent ⇒ WebCrypto. It must be SHA-256: the digests
   * are the same either way, so a journal written with one is replayed with the other.
   */
  readonly sha256?: (data: Uint8Array) => Uint8Array;
}
