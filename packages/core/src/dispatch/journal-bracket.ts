import type { BoundedResult } from '../bound/bound-for-model.js';
import type { ToolDispatchContext, ToolJournalContext } from '../dispatch-context.js';
import { EffectJournalError, isRefusedBeforeEffect } from '../errors.js';
import {
  DEFAULT_MAX_RECORD_BYTES,
  recordDispatch,
  replayRecord,
} from '../journal/dispatch-record.js';
import type { EffectJournal, EffectKey, SettledEffect } from '../journal/effect-journal.js';
import { effectArgsDigest, effectIdempotencyKey } from '../journal/effect-identity.js';
import { isJournaledTool } from '../journal/is-journaled-tool.js';
import type { AnyToolDef, ToolId } from '../tool-def.js';
import type { DurableMediaPart } from '../tool-host.js';
import { throwIfAborted } from './abort.js';
import { admitStage, runStage, type HostStage } from './host-stage.js';
import type { ToolJournalOutcome } from './tool-call.js';

/** What steps 5–8 produced (or a replay restored). */
export interface DispatchedCall {
  readonly parts: readonly DurableMediaPart[] | undefined;
  readonly output: unknown;
  readonly bounded: BoundedResult;
  readonly journal?: ToolJournalOutcome;
}

/** The call the bracket is around. */
export interface JournalBracketInput {
  readonly tool: AnyToolDef;
  /** The tool call's `id`: the journal's `callKey`. */
  readonly callId: string;
  /** The validated complete effective arguments: the identity's digest covers all of them. */
  readonly args: unknown;
  readonly ctx: ToolDispatchContext;
  /** The args made this call a read (`policy.readOnlyWhen`, screened once): nothing to journal. */
  readonly readOnly?: boolean;
}

/**
 * The durable effect bracket, after approval: a journaled call is looked up by run, call id, tool
 * and argument digest; a settled one replays its record (no `beforeDispatch`, no host call), a
 * prepared one is refused as `effect_unresolved` (it may have happened), another identity as
 * `journal_identity_mismatch`; an absent one is prepared, admitted, run with its idempotency key
 * and settled. Only a refusal known to precede the effect discards the claim: the engine's own
 * before the host call, or one the host marked `refusedBeforeEffect`; anything else may follow
 * an effect and keeps it. A failure to record never fails a call whose effect ran (the claim
 * stays unresolved instead). Unjournaled calls pass straight through.
 */
export function journalBracket(
  input: JournalBracketInput,
  stage: HostStage,
): Promise<DispatchedCall> {
  const { tool, ctx } = input;
  if (ctx.journal === undefined || input.readOnly === true || !isJournaledTool(tool)) {
    admitStage(stage);
    return runStage(stage, ctx);
  }
  return journaled(input, ctx.journal, stage);
}

async function journaled(
  { tool, callId, args, ctx }: JournalBracketInput,
  journal: ToolJournalContext,
  stage: HostStage,
): Promise<DispatchedCall> {
  const { store } = journal;
  const maxRecordBytes = recordCapOf(journal, tool.id);
  // The store's own SHA-256 when it offers one (sync, ~4 µs), else WebCrypto's (async, ~50 µs).
  const sha256 = typeof store.sha256 === 'function' ? store.sha256.bind(store) : undefined;
  const key = await effectKeyOf(tool.id, callId, args, journal.runId, sha256);
  const claimed = await claim(store, key);
  if (claimed.kind === 'settled') return replay(claimed.record, tool.id);
  const { claimId } = claimed;
  let callCtx: ToolDispatchContext;
  try {
    // Only a call that will run pays for its key; a replay needs none.
    callCtx = withIdempotencyKey(ctx, await keyOrRefuse(journal.runId, callId, tool.id, sha256));
    // After the awaits: a cancel that landed meanwhile still finds nothing started.
    throwIfAborted(ctx.signal, tool.id);
    admitStage(stage);
  } catch (error) {
    await discardOrKeep(store, claimId);
    throw error;
  }
  let ran: DispatchedCall;
  try {
    ran = await runStage(stage, callCtx);
  } catch (error) {
    // Only a failure the host marked as preceding its first effect proves nothing started. A
    // typed refusal alone does not: a redirect hop is refused after the first request landed.
    if (isRefusedBeforeEffect(error)) await discardOrKeep(store, claimId);
    throw error;
  }
  // The effect ran: the claim is kept, unresolved, and the call is refused.
  if (ran.parts !== undefined && ran.parts.length > 0) {
    throw new EffectJournalError(tool.id, 'journal_media_refused');
  }
  const recorded = recordDispatch(ran, maxRecordBytes);
  const settled = recorded !== undefined && (await settleOrKeep(store, claimId, recorded.record));
  const outcome: ToolJournalOutcome = {
    status: settled ? 'settled' : 'unsettled',
    outputDropped: recorded?.outputDropped ?? false,
    operatorResolved: false,
  };
  // No parts, as a replay has none: the first answer and every replay look alike.
  return { parts: undefined, output: ran.output, bounded: ran.bounded, journal: outcome };
}

// Normalised here too: a context can be built by hand, and a bad one fails closed, not open.
function recordCapOf(journal: ToolJournalContext, toolId: ToolId): number {
  const { runId, maxRecordBytes = DEFAULT_MAX_RECORD_BYTES } = journal;
  if (typeof runId !== 'string' || runId === '') unavailable(toolId);
  if (!Number.isSafeInteger(maxRecordBytes) || maxRecordBytes <= 0) unavailable(toolId);
  return maxRecordBytes;
}

async function effectKeyOf(
  toolId: ToolId,
  callKey: string,
  args: unknown,
  runId: string,
  sha256: ((data: Uint8Array) => Uint8Array) | undefined,
): Promise<EffectKey> {
  // Without a call id two calls would share one identity: a replay of the wrong call.
  if (typeof callKey !== 'string' || callKey === '') unavailable(toolId);
  const argsDigest = await effectArgsDigest(args, sha256);
  if (argsDigest === 'digest_unavailable') unavailable(toolId);
  if (argsDigest === 'args_unencodable') {
    throw new EffectJournalError(toolId, 'journal_args_unencodable');
  }
  return { runId, callKey, toolId, argsDigest };
}

async function keyOrRefuse(
  runId: string,
  callKey: string,
  toolId: ToolId,
  sha256: ((data: Uint8Array) => Uint8Array) | undefined,
): Promise<string> {
  try {
    return await effectIdempotencyKey(runId, callKey, sha256);
  } catch (error) {
    return unavailable(toolId, error);
  }
}

type Claimed = { readonly kind: 'prepared'; readonly claimId: string } | SettledState;
type SettledState = { readonly kind: 'settled'; readonly record: SettledEffect };

// Looks up, then prepares an absent call. A prepare that rejects (another process won the race,
// or the store failed) is judged by a second lookup: what is there now decides, and nothing runs.
async function claim(store: EffectJournal, key: EffectKey): Promise<Claimed> {
  const state = await lookupOrRefuse(store, key);
  if (state !== 'absent') return state;
  try {
    const { claimId } = await store.prepare(key);
    return { kind: 'prepared', claimId };
  } catch (error) {
    // A claim there now is another's (unresolved, or a mismatch) and refuses; a settled one replays.
    const now = await lookupOrRefuse(store, key);
    return now === 'absent' ? unavailable(key.toolId, error) : now;
  }
}

// Everything but a settled record or an empty slot refuses, before any effect.
async function lookupOrRefuse(
  store: EffectJournal,
  key: EffectKey,
): Promise<SettledState | 'absent'> {
  let state: Awaited<ReturnType<EffectJournal['lookup']>>;
  try {
    state = await store.lookup(key);
  } catch (error) {
    return unavailable(key.toolId, error);
  }
  switch (state?.kind) {
    case 'absent':
      return 'absent';
    case 'settled':
      return state;
    case 'prepared':
      throw unresolved(key.toolId);
    case 'mismatch':
      throw new EffectJournalError(key.toolId, 'journal_identity_mismatch');
    default:
      // A state this engine does not know: fail closed.
      return unavailable(key.toolId);
  }
}

function replay(record: SettledEffect, toolId: ToolId): DispatchedCall {
  const replayed = replayRecord(record);
  if (replayed === undefined) throw new EffectJournalError(toolId, 'journal_record_invalid');
  const { bounded, output, outputDropped, operatorResolved } = replayed;
  return {
    parts: undefined,
    output,
    bounded,
    journal: { status: 'replayed', outputDropped, operatorResolved },
  };
}

// The key the host passes on; the runner's `retainWork` and anything else it set are kept.
function withIdempotencyKey(ctx: ToolDispatchContext, idempotencyKey: string): ToolDispatchContext {
  return { ...ctx, hostCallOptions: { ...ctx.hostCallOptions, idempotencyKey } };
}

// A discard that fails keeps the claim: the call then reads as unresolved, never as absent.
async function discardOrKeep(store: EffectJournal, claimId: string): Promise<void> {
  try {
    await store.discard(claimId);
  } catch {
    // Kept: conservatively unresolved.
  }
}

// A settle that fails keeps the claim (unresolved); the call itself still returns its result.
async function settleOrKeep(
  store: EffectJournal,
  claimId: string,
  record: SettledEffect,
): Promise<boolean> {
  try {
    await store.settle(claimId, record);
    return true;
  } catch {
    return false;
  }
}

function unresolved(toolId: ToolId): EffectJournalError {
  return new EffectJournalError(toolId, 'effect_unresolved');
}

function unavailable(toolId: ToolId, cause?: unknown): never {
  throw new EffectJournalError(toolId, 'journal_unavailable', cause === undefined ? {} : { cause });
}
