import type { EffectJournal, EffectKey, JournalState, SettledEffect } from './effect-journal.js';
import { encodeJson } from './encode-json.js';

/**
 * An in-process `EffectJournal`: the seam's reference behaviour, for tests and for one process
 * that replays within its own lifetime (it survives no crash; use the SQLite journal of
 * `@toolhost/node` for that). One claim per `runId` + `callKey`: `prepare` rejects while any
 * claim for the call exists, prepared or settled; a record is stored as a JSON copy, so a later
 * change to the caller's object cannot rewrite history.
 */
export function createMemoryEffectJournal(): EffectJournal {
  const claims = new Map<string, Claim>();
  const byClaimId = new Map<string, string>();
  let nextClaim = 0;

  const claimOf = (claimId: string): [string, Claim] => {
    const slot = byClaimId.get(claimId);
    const claim = slot === undefined ? undefined : claims.get(slot);
    if (slot === undefined || claim === undefined) throw new Error(UNKNOWN_CLAIM);
    return [slot, claim];
  };

  return {
    lookup(key) {
      const claim = claims.get(slotOf(key));
      return Promise.resolve(claim === undefined ? ABSENT : stateOf(claim, key));
    },
    prepare(key) {
      const slot = slotOf(key);
      if (claims.has(slot)) return Promise.reject(new Error(CLAIM_EXISTS));
      nextClaim += 1;
      const claimId = `memory-claim-${nextClaim}`;
      claims.set(slot, { claimId, toolId: key.toolId, argsDigest: key.argsDigest });
      byClaimId.set(claimId, slot);
      return Promise.resolve({ claimId });
    },
    settle(claimId, record) {
      try {
        const [slot, claim] = claimOf(claimId);
        if (claim.record !== undefined) throw new Error(ALREADY_SETTLED);
        const text = encodeJson(record, { sortKeys: false });
        if (text === undefined) throw new TypeError(NOT_JSON);
        claims.set(slot, { ...claim, record: JSON.parse(text) as SettledEffect });
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    discard(claimId) {
      try {
        const [slot, claim] = claimOf(claimId);
        // A settled record is history: discarding it would let the effect run again.
        if (claim.record !== undefined) throw new Error(ALREADY_SETTLED);
        claims.delete(slot);
        byClaimId.delete(claimId);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

interface Claim {
  readonly claimId: string;
  readonly toolId: string;
  readonly argsDigest: string;
  readonly record?: SettledEffect;
}

const ABSENT: JournalState = Object.freeze({ kind: 'absent' });
const UNKNOWN_CLAIM = 'toolhost: unknown journal claim';
const CLAIM_EXISTS = 'toolhost: a claim for this call already exists';
const ALREADY_SETTLED = 'toolhost: the journal claim is already settled';
const NOT_JSON = 'toolhost: a settled record must be JSON';

function stateOf(claim: Claim, key: EffectKey): JournalState {
  if (claim.toolId !== key.toolId || claim.argsDigest !== key.argsDigest)
    return { kind: 'mismatch' };
  if (claim.record === undefined) return { kind: 'prepared', claimId: claim.claimId };
  // A copy per lookup: a caller mutating one replay cannot change the next.
  return { kind: 'settled', record: JSON.parse(JSON.stringify(claim.record)) as SettledEffect };
}

// Length-prefixed, so no runId/callKey pair can spell another's slot.
function slotOf({ runId, callKey }: EffectKey): string {
  return `${runId.length}:${runId}${callKey}`;
}
