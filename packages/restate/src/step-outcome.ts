import { unwrapUntrusted } from '@toolhost/core';
import { markUntrusted, type DurableMediaPart } from '@toolhost/core/host';
import type { LoopDispatchOutcome } from '@toolhost/core/loop';

/** What one dispatch step journals: the bounded model-facing result and its media handles. */
export interface StepOutcome {
  readonly result: unknown;
  readonly media?: readonly StepMedia[];
  /** Set when the result did not fit the step cap and a fixed stand-in took its place. */
  readonly oversized?: { readonly bytes: number; readonly capBytes: number };
}

/** A media attachment as JSON: the bytes (when carried) in base64. */
export interface StepMedia {
  readonly handle: string;
  readonly mimeType: string;
  readonly sizeBytes: number;
  readonly range?: { readonly start: number; readonly end: number };
  readonly dataBase64?: string;
}

/** Restate refuses (and retries forever) a journal entry over 32 MiB; stay far below it. */
export const MAX_STEP_RESULT_BYTES = 16 * 1024 * 1024;
/** The default cap on one dispatch step's journaled outcome. */
export const DEFAULT_STEP_RESULT_BYTES = 4 * 1024 * 1024;

/**
 * The outcome as a JSON step result, within `capBytes`. Only the bounded result is ever here
 * (a spilled output stays a handle); media bytes go first when it is over, then the result is
 * replaced by a fixed stand-in — the effect has already run, so the step must still settle.
 */
export function encodeStepOutcome(outcome: LoopDispatchOutcome, capBytes: number): StepOutcome {
  const { result } = unwrapUntrusted(outcome.toolResult);
  const parts =
    outcome.mediaAttachments === undefined ? undefined : unwrapUntrusted(outcome.mediaAttachments);
  const full = withMedia(
    result,
    parts?.map((part) => toStepMedia(part, true)),
  );
  const fullBytes = jsonBytes(full);
  if (fullBytes !== undefined && fullBytes <= capBytes) return full;
  const lean = withMedia(
    result,
    parts?.map((part) => toStepMedia(part, false)),
  );
  const leanBytes = jsonBytes(lean);
  if (leanBytes !== undefined && leanBytes <= capBytes) return lean;
  const bytes = leanBytes ?? -1;
  return {
    result: `[the tool result (${bytes < 0 ? 'not JSON' : `${bytes} bytes`}) exceeds the durable step cap of ${capBytes} bytes and was not kept]`,
    oversized: { bytes, capBytes },
  };
}

/** The step result back as the registry's outcome, branded untrusted again. */
export function decodeStepOutcome(step: StepOutcome): LoopDispatchOutcome {
  const toolResult = markUntrusted({ type: 'tool_result' as const, result: step.result });
  if (step.media === undefined || step.media.length === 0) return { toolResult };
  return { toolResult, mediaAttachments: markUntrusted(step.media.map(fromStepMedia)) };
}

function withMedia(result: unknown, media: readonly StepMedia[] | undefined): StepOutcome {
  return media === undefined || media.length === 0 ? { result } : { result, media };
}

/** One media part as JSON (its bytes, when carried and `withData`, in base64). */
export function toStepMedia(part: DurableMediaPart, withData: boolean): StepMedia {
  return {
    handle: part.handle,
    mimeType: part.mimeType,
    sizeBytes: part.sizeBytes,
    ...(part.range === undefined
      ? {}
      : { range: { start: part.range.start, end: part.range.end } }),
    ...(withData && part.data !== undefined
      ? {
          dataBase64: Buffer.from(
            part.data.buffer,
            part.data.byteOffset,
            part.data.byteLength,
          ).toString('base64'),
        }
      : {}),
  };
}

/** A JSON media part back as the engine's part. */
export function fromStepMedia(media: StepMedia): DurableMediaPart {
  return {
    type: 'media',
    handle: media.handle,
    mimeType: media.mimeType,
    sizeBytes: media.sizeBytes,
    ...(media.range === undefined ? {} : { range: media.range }),
    ...(media.dataBase64 === undefined
      ? {}
      : { data: new Uint8Array(Buffer.from(media.dataBase64, 'base64')) }),
  };
}

// What Restate's JSON serde will write; `undefined` when the value has no JSON form.
function jsonBytes(value: StepOutcome): number | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : Buffer.byteLength(text, 'utf8');
  } catch {
    return undefined;
  }
}
