import {
  backstopInlineMedia,
  isBinary,
  isInlineBase64Object,
  scrubInlineMedia,
} from '../bound/backstop-inline-media.js';
import { ToolDispatchError, UnknownToolError } from '../errors.js';
import {
  defineField,
  redactKey,
  redactLeaf,
  redactStructured,
} from '../redact/redact-structured.js';
import { mayHoldEncodedSecret, redactText } from '../redact/redact-text.js';
import type { ToolId } from '../tool-def.js';
import { collapseWhitespace } from './collapse-whitespace.js';
import type { ToolDispatchEvents } from './tool-call.js';

/** What the event projections are computed from. */
export interface ProjectEventsInput {
  readonly toolId: ToolId;
  readonly args: unknown;
  /** Keys never shown: config-only values and secret-tainted keys. */
  readonly hiddenKeys: ReadonlySet<string>;
  /** The bounded model-facing result (never the full one: the summary cost stays bounded). */
  readonly modelResult: unknown;
  /**
   * True when `modelResult` came out of this dispatch's bounding, which already replaced its
   * inline media: the summary then skips a second walk (a replayed record is walked again).
   */
  readonly mediaChecked: boolean;
}

/**
 * The secret-free `tool_call` / `tool_result` projections. Computed on first read and
 * memoised: scrubbing and JSON are most of a dispatch's cost and most callers never look.
 */
export function projectEvents(input: ProjectEventsInput): ToolDispatchEvents {
  return new LazyEvents(input);
}

// A class, not an object literal with getters: one allocation per dispatch instead of an
// accessor pair and two closures. `toJSON` keeps `JSON.stringify(events)` whole.
class LazyEvents implements ToolDispatchEvents {
  #input: ProjectEventsInput;
  #call: ToolDispatchEvents['call'] | undefined;
  #result: ToolDispatchEvents['result'] | undefined;

  constructor(input: ProjectEventsInput) {
    this.#input = input;
  }

  get call(): ToolDispatchEvents['call'] {
    this.#call ??= Object.freeze({
      toolId: this.#input.toolId,
      toolInput: projectToolInput(this.#input.args, this.#input.hiddenKeys),
    });
    return this.#call;
  }

  get result(): ToolDispatchEvents['result'] {
    this.#result ??= Object.freeze({
      toolId: this.#input.toolId,
      success: true,
      outputSummary: this.#input.mediaChecked
        ? summarizeText(summaryText(this.#input.modelResult))
        : summarizeOutput(this.#input.modelResult),
    });
    return this.#result;
  }

  toJSON(): { call: ToolDispatchEvents['call']; result: ToolDispatchEvents['result'] } {
    return { call: this.call, result: this.result };
  }
}

/**
 * The `tool_result` projection of a failure fed back to the model (a correctable or recoverable
 * error): `success: false`, summarised from the error's fixed, secret-free message. The tool is
 * the one the error names; an unknown tool has no registered id to name, and its message (which
 * quotes the model's chosen name back to the model) is replaced by a fixed one.
 */
export function projectFailedResult(error: Error): ToolDispatchEvents['result'] {
  const toolId = error instanceof ToolDispatchError ? error.toolId : undefined;
  return Object.freeze({
    toolId: toolId ?? UNKNOWN_TOOL,
    success: false,
    outputSummary: summarizeOutput(
      error instanceof UnknownToolError ? UNKNOWN_TOOL_MESSAGE : error.message,
    ),
  });
}

/** What a log or span says of an unknown tool: never the name the model chose. */
export const UNKNOWN_TOOL_MESSAGE = 'unknown tool';

/** The `toolId` of a failure that names no registered tool (the model asked for an unknown one). */
export const UNKNOWN_TOOL = '(unknown tool)';

const MAX_LEAF = 1000;
const MAX_SUMMARY = 500;
// Redaction reads a window past the clip so a credential whose end lies beyond the cut is still
// recognised whole before it is cut.
const SUMMARY_WINDOW = 8192;
// How far past the window redaction reads: the longest vendor token, key-value or bearer value.
const READ_WINDOW = SUMMARY_WINDOW + 4096;
const MAX_DEPTH = 32;
const INLINE_BASE64_OBJECT = '[inline base64 media]';

/**
 * The effective args minus hidden keys, keys and string leaves scrubbed (leaves then clipped),
 * cycles marked.
 */
export function projectToolInput(args: unknown, hiddenKeys: ReadonlySet<string>): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return projectValue(args, undefined, [], 0);
  }
  const ancestors: object[] = [args];
  const projected: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    if (hiddenKeys.has(key)) continue;
    const shown = redactKey(key);
    defineField(
      projected,
      shown,
      projectValue((args as Record<string, unknown>)[key], shown, ancestors, 1),
    );
  }
  return projected;
}

/** A one-line, redacted, ≤ 500-character summary of the model-facing result, media as markers. */
export function summarizeOutput(modelResult: unknown): string {
  return summarizeText(
    summaryText(typeof modelResult === 'string' ? modelResult : backstopInlineMedia(modelResult)),
  );
}

// The summary reads no further than its window, so the JSON is built from a copy whose keys and
// leaves are redacted first (a serialiser's escape can glue a secret to a letter), each leaf
// read no further than just past the window, and every leaf after the window's worth of kept
// text left empty (it lies past the window): a megabyte of content is neither redacted, escaped
// nor copied. The walk still visits every value (a cycle or a BigInt deep inside still makes it
// unserialisable, as before).
function summaryText(modelResult: unknown): string {
  if (typeof modelResult === 'string') return modelResult;
  try {
    const redacted = redactStructured(modelResult, { leaf: cutLongString, budget: READ_WINDOW });
    return JSON.stringify(redacted) ?? '';
  } catch {
    return '';
  }
}

// A leaf is read up to READ_WINDOW + 2 units, so the window's cut never falls before the leaf's:
// a secret straddling the window is redacted whole before the summary is cut.
function cutLongString(value: string): string {
  return value.length > READ_WINDOW + 2 ? value.slice(0, READ_WINDOW + 2) : value;
}

function summarizeText(text: string): string {
  // Media first, so no encoded blob is mistaken for a secret or fills the summary; then
  // multi-line shapes (PEM, a key split by a tab), then the one-line form. Redaction reads past
  // the window, so a credential the window's cut falls inside is recognised whole, then cut.
  const scrubbed = scrubInlineMedia(clip(text, READ_WINDOW));
  // Collapsing turns each whitespace run into one space, and every shape that allows
  // whitespace allows one space there (a run is always matched whole by one part of a shape,
  // never needed at either end of a match): a shape in the text is still one after the
  // collapse, read plainly or with its escapes decoded (an escape holds no whitespace). So a
  // collapsed text with none had none before: both passes would change nothing.
  const oneLine = collapseWhitespace(scrubbed);
  if (!mayHoldEncodedSecret(oneLine)) {
    const shown =
      scrubbed.length <= SUMMARY_WINDOW
        ? oneLine
        : collapseWhitespace(clip(scrubbed, SUMMARY_WINDOW));
    return clip(shown.trim(), MAX_SUMMARY);
  }
  const window = clip(redactText(scrubbed), SUMMARY_WINDOW);
  return clip(redactText(collapseWhitespace(window).trim()), MAX_SUMMARY);
}

function projectValue(
  value: unknown,
  shownKey: string | undefined,
  ancestors: object[],
  depth: number,
): unknown {
  switch (typeof value) {
    case 'string':
      return clip(redactLeaf(scrubInlineMedia(clip(value, SUMMARY_WINDOW)), shownKey), MAX_LEAF);
    case 'bigint':
      return `${value}`;
    case 'function':
      return '[function]';
    case 'symbol':
      return '[symbol]';
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (ancestors.includes(value)) return '[cyclic]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (isBinary(value)) return `[binary ${value.byteLength} bytes]`;
  if (isInlineBase64Object(value)) return INLINE_BASE64_OBJECT;
  // Only ancestors are cycles: a sibling seen twice is projected at each occurrence.
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item) => projectValue(item, undefined, ancestors, depth + 1));
    }
    const projected: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const shown = redactKey(key);
      defineField(
        projected,
        shown,
        projectValue((value as Record<string, unknown>)[key], shown, ancestors, depth + 1),
      );
    }
    return projected;
  } finally {
    ancestors.pop();
  }
}

/** At most `max` UTF-16 units, never ending on half of a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
