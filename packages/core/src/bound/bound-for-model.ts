import type { AbortSignalLike } from '../abort-signal-like.js';
import type { ToolResultLimits } from '../dispatch-context.js';
import type { SpilledResult, SpillPart, ToolOutputStore } from '../tool-host.js';
import { ToolExecutionError } from '../errors.js';
import { backstopInlineMedia } from './backstop-inline-media.js';
import { DEFAULT_TOOL_RESULT_LIMITS } from './default-tool-result-limits.js';
import { countLines } from './count-lines.js';
import {
  completeRendering,
  excerptRendering,
  joinRendering,
  renderForModel,
  renderingBytes,
  renderingLines,
  sectionsFitInPlace,
  splitSections,
  type Rendering,
} from './render-for-model.js';
import { backwardCut, forwardCut, utf8ByteLength } from './utf8.js';
import { spillPartOf, takeUtf8Source, type Utf8Source } from './utf8-source.js';

/**
 * The model-facing text of an over-ceiling result: a flat text, or a rendering with its size,
 * joined only when it is spilled (its preview needs just both ends).
 */
export type OverCeilingText =
  | { readonly text: string; readonly lines?: number; readonly bytes?: number }
  | {
      readonly rendering: Rendering;
      readonly lines: number;
      readonly bytes?: number;
      /** A section body's UTF-8 as the host read it, spilled instead of re-encoding the body. */
      readonly source?: Utf8Source | undefined;
    };

/** Where an over-ceiling result may spill and what may cancel the spill. */
export interface BoundForModelOptions {
  readonly limits?: ToolResultLimits | undefined;
  readonly store?: ToolOutputStore | undefined;
  readonly signal?: AbortSignalLike | undefined;
}

/** The model-facing copy of a result: the value itself when it fits, else a preview + marker. */
export interface BoundedResult {
  readonly result: unknown;
  readonly truncated: boolean;
  /** The store's handle when the full text was spilled. */
  readonly spill?: SpilledResult;
}

/**
 * Bounds a result for the model (built-in-tools.md §4): inline media is replaced by a marker (see
 * `backstopInlineMedia`); a value then within `maxBytes`/`maxLines` is returned as is; a larger one
 * becomes ~70% head + ~30% tail cut on code-point boundaries around a truncation marker, and the
 * full text is spilled through the store when there is one.
 */
export async function boundForModel(
  value: unknown,
  options: BoundForModelOptions = {},
): Promise<BoundedResult> {
  const limits = options.limits ?? DEFAULT_TOOL_RESULT_LIMITS;
  const modelView = backstopInlineMedia(value);
  const over = overCeilingText(modelView, limits);
  if (over === undefined) return { result: modelView, truncated: false };
  return truncate(over, limits, options.store, options.signal);
}

/**
 * The model-facing text of `value` (see `toModelText`) when it exceeds the limits, `undefined`
 * when it fits. Cheap for small values: an object with no bulk text is sized by an upper-bound
 * walk before any JSON is built, and bulk text is measured without joining it.
 */
export function overCeilingText(
  value: unknown,
  limits: ToolResultLimits,
): OverCeilingText | undefined {
  if (typeof value === 'string') return fitsText(value, limits) ? undefined : { text: value };
  if (typeof value !== 'object' || value === null) return undefined;
  // Taken whether or not the result fits: it is let go either way once bounded.
  const source = takeUtf8Source(value);
  let rendering: Rendering | undefined;
  try {
    // Sizes alone settle most renderings: no split, head, rule or byte count is built for them.
    const fits = sectionsFitInPlace(value, limits);
    if (fits === true) return undefined;
    const split = fits === undefined ? undefined : splitSections(value);
    rendering = split === undefined ? undefined : completeRendering(split);
  } catch {
    return { text: UNSERIALIZABLE };
  }
  if (rendering !== undefined) {
    const over = overCeilingRendering(rendering, limits);
    return over === undefined || source === undefined ? over : { ...over, source };
  }
  if (estimateJsonBytes(value, limits.maxBytes, 0) <= limits.maxBytes) return undefined;
  // Near the ceiling, decide on the compact JSON the model would otherwise be handed.
  const json = safeStringify(value);
  if (json === undefined) return { text: UNSERIALIZABLE };
  if (json.length <= limits.maxBytes && utf8ByteLength(json) <= limits.maxBytes) return undefined;
  return renderForModel(value) ?? { text: UNSERIALIZABLE };
}

// The model reads this rendering itself, so it is what the limits bound, lines included. Its
// bytes are counted only when its length leaves the answer open: a spill reports them anyway.
function overCeilingRendering(
  rendering: Rendering,
  limits: ToolResultLimits,
): OverCeilingText | undefined {
  const lines = renderingLines(rendering);
  if (lines > limits.maxLines || renderingUnits(rendering) > limits.maxBytes) {
    return { rendering, lines };
  }
  const bytes = renderingBytes(rendering);
  return bytes <= limits.maxBytes ? undefined : { rendering, lines, bytes };
}

// A UTF-16 unit is at least one UTF-8 byte.
function renderingUnits({ head, sections }: Rendering): number {
  let units = head.length;
  for (const { header, body } of sections) units += 2 + header.length + body.length;
  return units;
}

/** Builds the preview + marker for an over-ceiling text, spilling the full text first. */
export async function truncate(
  over: OverCeilingText,
  limits: ToolResultLimits,
  store: ToolOutputStore | undefined,
  signal: AbortSignalLike | undefined,
): Promise<BoundedResult> {
  let joined: string | undefined;
  const text = (): string =>
    'text' in over ? over.text : (joined ??= joinRendering(over.rendering));
  let spill: SpilledResult | undefined;
  let unavailable = 'no_output_store';
  if (store !== undefined) {
    try {
      spill =
        'rendering' in over && store.spillParts !== undefined
          ? await store.spillParts(spillParts(over.rendering, over.source), limits, signal)
          : await store.spill(text(), limits, signal);
    } catch (error) {
      // A failed spill degrades to a preview: the model still gets bounded, honest output.
      unavailable =
        signal?.aborted === true
          ? 'cancelled'
          : isQuotaRefusal(error)
            ? 'spill quota reached'
            : 'spill_failed';
    }
  }
  const bytes =
    spill?.byteLength ??
    over.bytes ??
    ('rendering' in over ? renderingBytes(over.rendering) : utf8ByteLength(over.text));
  const lines = over.lines ?? countLines(text(), Number.POSITIVE_INFINITY);
  const where =
    spill === undefined
      ? `full output unavailable (${unavailable})`
      : `full output at ${spill.ref} (page it with read_file offset/limit)`;
  const marker = `[… truncated: ${bytes} bytes / ${lines} lines; ${where} …]`;
  // The preview reads only both ends: a long rendering is not joined (and copied) just for them.
  const ends =
    'text' in over ? over.text : (joined ?? excerptRendering(over.rendering, limits.maxBytes));
  const preview = previewAround(ends, marker, limits);
  return spill === undefined
    ? { result: preview, truncated: true }
    : { result: preview, truncated: true, spill: { ref: spill.ref, byteLength: spill.byteLength } };
}

const UNSERIALIZABLE = '[unserializable result]';

// `joinRendering`'s pieces, unjoined: every cut sits next to an ASCII line break, so encoding
// the pieces one by one gives the joined text's bytes (a lone surrogate stays lone either way).
function spillParts(rendering: Rendering, source: Utf8Source | undefined): SpillPart[] {
  const parts: SpillPart[] = [];
  let prefix = rendering.head;
  for (const { header, body } of rendering.sections) {
    parts.push(`${prefix}\n${header}\n`, spillPartOf(body, source));
    prefix = '';
  }
  if (prefix !== '') parts.push(prefix);
  return parts;
}

function fitsText(text: string, limits: ToolResultLimits): boolean {
  // A UTF-16 code unit is at most 3 UTF-8 bytes, and n units hold at most n newlines.
  if (text.length * 3 <= limits.maxBytes && text.length < limits.maxLines) return true;
  if (text.length > limits.maxBytes) return false;
  return (
    countLines(text, limits.maxLines) <= limits.maxLines && utf8ByteLength(text) <= limits.maxBytes
  );
}

function previewAround(text: string, marker: string, limits: ToolResultLimits): string {
  const budget = limits.maxBytes - utf8ByteLength(marker) - 2;
  const lineBudget = limits.maxLines - 1;
  if (budget <= 0 || lineBudget <= 0) return marker;
  const headBytes = Math.floor(budget * 0.7);
  const headLines = Math.max(1, Math.floor(lineBudget * 0.7));
  const tailLines = lineBudget - headLines;
  let headEnd = forwardCut(text, 0, headBytes);
  const lastHeadNewline = nthNewline(text, headLines, headEnd);
  if (lastHeadNewline !== -1) headEnd = lastHeadNewline;
  let tailStart = backwardCut(text, headEnd, budget - utf8ByteLength(text.slice(0, headEnd)));
  if (tailLines === 0) tailStart = text.length;
  else {
    const firstTailNewline = nthNewlineFromEnd(text, tailLines, tailStart);
    if (firstTailNewline !== -1) tailStart = firstTailNewline + 1;
  }
  const tail = text.slice(tailStart);
  // No empty trailing line for an empty tail: it would count against maxLines.
  return `${text.slice(0, headEnd)}\n${marker}${tail === '' ? '' : `\n${tail}`}`;
}

/** Index of the n-th newline when it lies before `limit`, else -1. */
function nthNewline(text: string, n: number, limit: number): number {
  let index = -1;
  for (let found = 0; found < n; found++) {
    index = text.indexOf('\n', index + 1);
    if (index === -1 || index >= limit) return -1;
  }
  return index;
}

/**
 * Index of the n-th newline counted from the end when it lies at or after `floor`, else -1.
 * Scans forward from `floor`: `lastIndexOf` is a per-character loop in V8, `indexOf` is not, and
 * the tail region is small while the text before it may be megabytes without a newline.
 */
function nthNewlineFromEnd(text: string, n: number, floor: number): number {
  // A ring of the last n newline positions seen.
  const ring = new Array<number>(n);
  let seen = 0;
  for (let index = text.indexOf('\n', floor); index !== -1; index = text.indexOf('\n', index + 1)) {
    ring[seen % n] = index;
    seen += 1;
  }
  return seen < n ? -1 : (ring[seen % n] ?? -1);
}

// An upper bound of the compact JSON size, abandoned (Infinity) as soon as it passes `budget`:
// for a typical small result this costs far less than building the JSON.
function estimateJsonBytes(value: unknown, budget: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      // Worst case per code unit: a `\u00XX` escape (6 bytes).
      return value.length * 6 + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'object':
      break;
    default:
      return 9;
  }
  if (value === null) return 4;
  if (depth > 32 || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return Number.POSITIVE_INFINITY;
  }
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += estimateJsonBytes(item, budget - total, depth + 1) + 1;
      if (total > budget) return Number.POSITIVE_INFINITY;
    }
    return total;
  }
  for (const key of Object.keys(value)) {
    total += key.length * 6 + 4;
    total += estimateJsonBytes((value as Record<string, unknown>)[key], budget - total, depth + 1);
    if (total > budget) return Number.POSITIVE_INFINITY;
  }
  return total;
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    // A cycle or a BigInt: the model gets a fixed note instead of a crash.
    return undefined;
  }
}

// The host's per-call or per-run spill quota refused it: said as the process output says it.
function isQuotaRefusal(error: unknown): boolean {
  return error instanceof ToolExecutionError && error.reason === 'spill_quota_exceeded';
}
