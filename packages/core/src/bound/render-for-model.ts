import { countLines } from './count-lines.js';
import { utf8ByteLength } from './utf8.js';

/**
 * How a plain-object result is shown to the model when its bulk is text (`content`, `stdout`,
 * `body`): JSON would escape every newline into one unreadable, unpageable line, so each such
 * field becomes a raw section under a header line, after the remaining fields as indented JSON.
 * The same layout is the preview and the spill, so a spill pages by real lines with `read_file`.
 */
export interface Rendering {
  /** The fields that stay JSON, indented. */
  readonly head: string;
  /** Header line + raw text of each bulk field, in key order. */
  readonly sections: readonly RenderedSection[];
}

export interface RenderedSection {
  readonly header: string;
  readonly body: string;
}

/** A rendering's text with its size, when it was cheap to know. */
export interface RenderedText {
  readonly text: string;
  readonly lines?: number;
  readonly bytes?: number;
}

/**
 * Lays out a plain object with at least one bulk text field; `undefined` for anything else (an
 * array, a class instance, an object with only small fields), which the model sees as compact
 * JSON. Throws like `JSON.stringify` on a cycle or a BigInt.
 */
export function planRendering(value: object): Rendering | undefined {
  const split = splitSections(value);
  return split === undefined ? undefined : completeRendering(split);
}

/**
 * A plain object's fields split into the bulk text sections and the rest, before the JSON head
 * and the header rule are built (what bounding needs to know that a rendering fits); `undefined`
 * when `planRendering` would give `undefined`.
 */
export interface SectionSplit {
  /** The fields that stay JSON; null prototype, so an own `__proto__` field stays a field. */
  readonly rest: Record<string, unknown>;
  readonly bulk: readonly (readonly [key: string, body: string])[];
}

/** `planRendering`'s first half: which fields are sections. Builds no text. */
export function splitSections(value: object): SectionSplit | undefined {
  if (!isPlainObject(value)) return undefined;
  const fields = value as Record<string, unknown>;
  const keys = Object.keys(fields);
  // Most results have no bulk text: find out before building anything.
  if (!keys.some((key) => isSection(key, fields[key]))) return undefined;
  const rest = Object.create(null) as Record<string, unknown>;
  const bulk: [key: string, body: string][] = [];
  for (const key of keys) {
    const field = fields[key];
    if (typeof field === 'string' && isSection(key, field)) bulk.push([key, field]);
    else rest[key] = field;
  }
  return { rest, bulk };
}

/** `planRendering`'s second half. Throws like `JSON.stringify` on a cycle or a BigInt. */
export function completeRendering({ rest, bulk }: SectionSplit): Rendering {
  const rule = uniqueRule(bulk.map(([, body]) => body));
  return {
    head: JSON.stringify(rest, null, 2),
    sections: bulk.map(([key, body]) => ({ header: `${rule} ${key} ${rule}`, body })),
  };
}

/**
 * True when the rendering of `value` certainly fits `limits`, told from sizes alone, in one pass
 * over its fields: the lines are counted, the bytes bounded (a UTF-16 unit is at most 3 UTF-8
 * bytes, the ASCII header rule no longer than five plus one per line break that could start a
 * run of `=`), and neither the split, the JSON head, the rule nor a byte count is built. False
 * means "measure it", not "over": a head that is not all flat scalars (which JSON could refuse)
 * is never judged here. `undefined` when `value` has no section (as `splitSections` would say).
 */
export function sectionsFitInPlace(
  value: object,
  { maxBytes, maxLines }: { readonly maxBytes: number; readonly maxLines: number },
): boolean | undefined {
  if (!isPlainObject(value)) return undefined;
  const fields = value as Record<string, unknown>;
  let sections = 0;
  let headFields = 0;
  let headUnits = 3;
  let headFlat = true;
  let bodyLines = 0;
  let bodyUnits = 0;
  let asciiUnits = 0;
  for (const key of Object.keys(fields)) {
    const field = fields[key];
    if (typeof field === 'string' && isSection(key, field)) {
      sections += 1;
      // Lines past the limit are not counted exactly; the check below only compares them.
      bodyLines += 1 + countLines(field, maxLines);
      bodyUnits += field.length;
      asciiUnits += 4 + key.length;
      continue;
    }
    const valueUnits = flatValueUnits(field);
    if (valueUnits === undefined) headFlat = false;
    else {
      headFields += 1;
      headUnits += 3 + key.length * 6 + 2 + 2 + valueUnits + 1;
    }
  }
  if (sections === 0) return undefined;
  if (!headFlat) return false;
  const lines = (headFields === 0 ? 1 : headFields + 2) + bodyLines;
  if (lines > maxLines) return false;
  const ruleLength = 5 + sections + Math.floor(bodyUnits / 6);
  asciiUnits += sections * 2 * ruleLength;
  return (headUnits + bodyUnits) * 3 + asciiUnits <= maxBytes;
}

// A flat field's JSON length bound (at worst every unit escaped); `undefined` for any other.
function flatValueUnits(field: unknown): number | undefined {
  if (typeof field === 'string') return field.length * 6 + 2;
  if (typeof field === 'number') return 24;
  if (typeof field === 'boolean' || field === null) return 5;
  return undefined;
}

/** The rendering as one text: head, then each header line and its raw text. */
export function joinRendering({ head, sections }: Rendering): string {
  let text = head;
  for (const { header, body } of sections) text += `\n${header}\n${body}`;
  return text;
}

/**
 * `joinRendering(rendering)` with all but its first and last `units` code units left out (whole
 * when it is not longer than both): a preview cut within `units` bytes of either end reads the
 * same from it, and a megabyte rendering is not joined, and copied, just for its ends.
 */
export function excerptRendering(rendering: Rendering, units: number): string {
  const pieces = [rendering.head];
  for (const { header, body } of rendering.sections) pieces.push('\n', header, '\n', body);
  const length = pieces.reduce((total, piece) => total + piece.length, 0);
  if (length <= 2 * units) return pieces.join('');
  let head = '';
  for (const piece of pieces) {
    if (head.length >= units) break;
    head += piece.slice(0, units - head.length);
  }
  let tail = '';
  for (let index = pieces.length - 1; index >= 0 && tail.length < units; index -= 1) {
    const piece = pieces[index] ?? '';
    tail = piece.slice(Math.max(0, piece.length - (units - tail.length))) + tail;
  }
  return head + tail;
}

/** Lines and UTF-8 bytes of `joinRendering(rendering)`, without building it. */
export function measureRendering(rendering: Rendering): {
  lines: number;
  bytes: number;
} {
  return { lines: renderingLines(rendering), bytes: renderingBytes(rendering) };
}

/** Lines of `joinRendering(rendering)`, without building it. */
export function renderingLines({ head, sections }: Rendering): number {
  let lines = countLines(head, Number.POSITIVE_INFINITY);
  // Counted per body: the same scan over the joined text is ~5x slower in V8.
  for (const { body } of sections) lines += 1 + countLines(body, Number.POSITIVE_INFINITY);
  return lines;
}

/** UTF-8 bytes of `joinRendering(rendering)`, without building it. */
export function renderingBytes({ head, sections }: Rendering): number {
  let bytes = utf8ByteLength(head);
  for (const { header, body } of sections) bytes += 2 + header.length + utf8ByteLength(body);
  return bytes;
}

/**
 * The text an over-ceiling structured result is previewed and spilled as: its rendering when it
 * has bulk text, else indented JSON. `undefined` when it cannot be serialised (a cycle, a BigInt).
 */
export function renderForModel(value: object): RenderedText | undefined {
  try {
    const rendering = planRendering(value);
    if (rendering === undefined) return { text: JSON.stringify(value, null, 2) };
    return { text: joinRendering(rendering), ...measureRendering(rendering) };
  } catch {
    // A cycle or a BigInt: the caller gives the model a fixed note instead of a crash.
    return undefined;
  }
}

// Header keys are plain identifiers (ASCII, so a header's length is its byte count): a key from
// an MCP server could otherwise carry a newline and forge a line of the rendering.
const SECTION_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

// Only text worth reading raw (a multi-line or long string) under a plain identifier: short
// scalars stay in the JSON head.
function isSection(key: string, field: unknown): boolean {
  return (
    typeof field === 'string' &&
    (field.length > 256 || field.includes('\n')) &&
    SECTION_KEY.test(key)
  );
}

/**
 * The shortest run of `=` (at least five) that starts no body line followed by a space, so
 * untrusted text cannot forge a section boundary. One pass per body, whatever the text: a pytest
 * banner (a longer run) leaves it at five.
 */
function uniqueRule(bodies: readonly string[]): string {
  const taken = new Set<number>();
  for (const body of bodies) {
    takeRun(body, 0, taken);
    // A carriage return starts a line too, for a reader that splits on it.
    for (const lineStart of ['\n=====', '\r=====']) {
      for (let at = body.indexOf(lineStart); at !== -1; at = body.indexOf(lineStart, at + 1)) {
        takeRun(body, at + 1, taken);
      }
    }
  }
  let length = 5;
  while (taken.has(length)) length += 1;
  return '='.repeat(length);
}

/** Notes the length of a run of five or more `=` at `start` when a space follows it. */
function takeRun(body: string, start: number, taken: Set<number>): void {
  let end = start;
  while (body.charCodeAt(end) === EQUALS) end += 1;
  if (end - start >= 5 && body.charCodeAt(end) === SPACE) taken.add(end - start);
}

const EQUALS = 0x3d;
const SPACE = 0x20;

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return (
    (prototype === Object.prototype || prototype === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}
