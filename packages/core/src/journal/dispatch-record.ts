import type { BoundedResult } from '../bound/bound-for-model.js';
import { utf8ByteLength } from '../bound/utf8.js';
import type { SpilledResult } from '../tool-host.js';
import type { SettledEffect } from './effect-journal.js';
import { encodeJson } from './encode-json.js';
import { isOperatorResolvedRecord, OPERATOR_RESOLVED_RESULT } from './operator-resolved-record.js';

/** The record cap when `ctx.journal.maxRecordBytes` is absent: 8 MiB of JSON. */
export const DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** What a dispatch produced, and what a replay gives back. */
export interface DispatchRecordContent {
  readonly bounded: BoundedResult;
  readonly output: unknown;
}

/** A record to settle with, and whether it had to leave the full output out. */
export interface DispatchRecord {
  readonly record: SettledEffect;
  readonly outputDropped: boolean;
}

/**
 * The settled record of a dispatch: the bounded model-facing result, its cut and spill handle,
 * and the full output. Over `maxBytes`, or when the output has no exact JSON form, the output is
 * dropped and the bounded result stands in for it on replay (flagged `outputDropped`): the
 * record shrinks once, never in a loop. `undefined` when even that does not fit: the caller
 * leaves the claim unresolved rather than fail a call whose effect ran.
 */
export function recordDispatch(
  { bounded, output }: DispatchRecordContent,
  maxBytes: number,
): DispatchRecord | undefined {
  const result = encodeOptional(bounded.result);
  if (result === null) return undefined;
  // Only the handle's two fields: whatever else a store hangs on it is not history.
  const spill =
    bounded.spill === undefined
      ? undefined
      : encodeJson({ ref: bounded.spill.ref, byteLength: bounded.spill.byteLength }, EXACT);
  if (spill === undefined && bounded.spill !== undefined) return undefined;
  const head = `{"kind":"dispatched","version":1,"truncated":${bounded.truncated}${
    spill === undefined ? '' : `,"spill":${spill}`
  }${result === undefined ? '' : `,"result":${result}`}`;
  const full = encodeOptional(output);
  if (full !== null) {
    const text = `${head}${full === undefined ? '' : `,"output":${full}`}}`;
    if (utf8ByteLength(text) <= maxBytes) return { record: parse(text), outputDropped: false };
  }
  const text = `${head},"outputDropped":true}`;
  return utf8ByteLength(text) <= maxBytes
    ? { record: parse(text), outputDropped: true }
    : undefined;
}

/** What a replay of a record returns. */
export interface ReplayedRecord extends DispatchRecordContent {
  readonly outputDropped: boolean;
  readonly operatorResolved: boolean;
}

/**
 * Reads a settled record back: a dispatch's own, or an operator's resolution (answered with the
 * fixed `OPERATOR_RESOLVED_RESULT`). `undefined` for a record of any other shape: the caller
 * refuses it rather than guess, and never runs the effect.
 */
export function replayRecord(record: SettledEffect): ReplayedRecord | undefined {
  if (isOperatorResolvedRecord(record)) {
    return {
      bounded: { result: OPERATOR_RESOLVED_RESULT, truncated: false },
      output: OPERATOR_RESOLVED_RESULT,
      outputDropped: false,
      operatorResolved: true,
    };
  }
  const { kind, version, truncated, spill, outputDropped = false } = record;
  if (kind !== 'dispatched' || version !== 1 || typeof truncated !== 'boolean') return undefined;
  if (typeof outputDropped !== 'boolean') return undefined;
  if (spill !== undefined && !isSpill(spill)) return undefined;
  const result = Object.hasOwn(record, 'result') ? record['result'] : undefined;
  const output = outputDropped
    ? result
    : Object.hasOwn(record, 'output')
      ? record['output']
      : undefined;
  const bounded: BoundedResult =
    spill === undefined ? { result, truncated } : { result, truncated, spill };
  return { bounded, output, outputDropped, operatorResolved: false };
}

const EXACT = { sortKeys: false } as const;

// `undefined` encodes as an absent key; `null` here means "no exact JSON form".
function encodeOptional(value: unknown): string | undefined | null {
  if (value === undefined) return undefined;
  return encodeJson(value, EXACT) ?? null;
}

function parse(text: string): SettledEffect {
  return JSON.parse(text) as SettledEffect;
}

function isSpill(value: unknown): value is SpilledResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { ref, byteLength } = value as Record<string, unknown>;
  return typeof ref === 'string' && typeof byteLength === 'number';
}
