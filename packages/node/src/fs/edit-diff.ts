import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import type { StructuredPatchHunk } from 'diff';
import type { EditRegion } from './apply-edits.js';

/** Unchanged lines shown around each change, as `diff -u` does. */
const CONTEXT_LINES = 3;
// A window longer than this, or whose line diff would take more edit steps, is shown whole: `-`
// every old line, `+` every new one. Myers' diff costs lines × steps; these bound it.
const MAX_DIFFED_LINES = 4000;
const MAX_EDIT_LENGTH = 500;

/**
 * The unified diff of an edit, from its regions: each region is widened to whole lines plus
 * context, windows that touch are merged, and only those windows are line-diffed (`diff`'s
 * `structuredPatch`) and placed at their line numbers. The rest of the file is never compared,
 * and the original is scanned for line breaks only as far as the last window.
 */
export function formatEditDiff(
  displayPath: string,
  original: string,
  edited: string,
  regions: readonly EditRegion[],
): string {
  const hunks: StructuredPatchHunk[] = [];
  const lines = new LineIndex(original);
  for (const window of windowsOf(regions, lines, edited)) {
    const oldStart = lines.startOf(window.firstLine);
    const oldEnd = lines.startOf(window.lastLine + 1);
    // Outside the regions the texts agree, so the window's new edges are its old ones shifted.
    const newStart = oldStart + window.shiftBefore;
    const newEnd = oldEnd + window.shiftBefore + window.shiftWithin;
    const firstNewLine = window.firstLine + window.linesBefore;
    const before = original.slice(oldStart, oldEnd);
    const after = edited.slice(newStart, newEnd);
    const lineCount = 2 * (window.lastLine - window.firstLine + 1) + window.linesWithin;
    const patch =
      lineCount > MAX_DIFFED_LINES
        ? undefined
        : structuredPatch('', '', before, after, undefined, undefined, {
            context: CONTEXT_LINES,
            maxEditLength: MAX_EDIT_LENGTH,
          });
    for (const hunk of patch?.hunks ?? [wholeHunk(before, after)]) {
      hunks.push({
        ...hunk,
        oldStart: hunk.oldStart + window.firstLine,
        newStart: hunk.newStart + firstNewLine,
      });
    }
  }
  if (hunks.length === 0) return '';
  return formatPatch(
    {
      oldFileName: `a/${displayPath}`,
      newFileName: `b/${displayPath}`,
      oldHeader: undefined,
      newHeader: undefined,
      hunks,
    },
    FILE_HEADERS_ONLY,
  );
}

interface Window {
  /** 0-based, inclusive, in the original. */
  firstLine: number;
  lastLine: number;
  /** How much longer the edited text is before the window, and within it: code units, lines. */
  shiftBefore: number;
  shiftWithin: number;
  linesBefore: number;
  linesWithin: number;
}

function windowsOf(regions: readonly EditRegion[], lines: LineIndex, edited: string): Window[] {
  const original = lines.text;
  const windows: Window[] = [];
  let shift = 0;
  let lineShift = 0;
  for (const region of regions) {
    const delta = region.newEnd - region.newStart - (region.origEnd - region.origStart);
    const lineDelta =
      countBreaks(edited, region.newStart, region.newEnd) -
      countBreaks(original, region.origStart, region.origEnd);
    const first = Math.max(0, lines.lineOf(region.origStart) - CONTEXT_LINES);
    const lastTouched = lines.lineOf(Math.max(region.origStart, region.origEnd - 1));
    const last = lines.clampLine(lastTouched + CONTEXT_LINES);
    const previous = windows.at(-1);
    if (previous !== undefined && first <= previous.lastLine + 1) {
      previous.lastLine = Math.max(previous.lastLine, last);
      previous.shiftWithin += delta;
      previous.linesWithin += lineDelta;
    } else {
      windows.push({
        firstLine: first,
        lastLine: last,
        shiftBefore: shift,
        shiftWithin: delta,
        linesBefore: lineShift,
        linesWithin: lineDelta,
      });
    }
    shift += delta;
    lineShift += lineDelta;
  }
  return windows;
}

function countBreaks(text: string, start: number, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    count += 1;
  }
  return count;
}

// Line starts, found with `indexOf` on demand: the regions come in order, so the scan only ever
// moves forward, and stops at the last line a window needs.
class LineIndex {
  readonly #starts: number[] = [0];
  #scanned = 0;

  constructor(readonly text: string) {}

  /** The offset line `line` starts at; the text's length past the last line. */
  startOf(line: number): number {
    this.#scanTo(() => this.#starts.length > line);
    return this.#starts[line] ?? this.text.length;
  }

  /** The 0-based line holding `offset` (the last line for the end of the text). */
  lineOf(offset: number): number {
    this.#scanTo(() => (this.#starts.at(-1) ?? 0) > offset);
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.#starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** `line`, or the last line when the text has fewer. */
  clampLine(line: number): number {
    this.#scanTo(() => this.#starts.length > line);
    return Math.min(line, this.#starts.length - 1);
  }

  #scanTo(done: () => boolean): void {
    while (!done() && this.#scanned < this.text.length) {
      const at = this.text.indexOf('\n', this.#scanned);
      if (at === -1 || at + 1 >= this.text.length) {
        this.#scanned = this.text.length;
        return;
      }
      this.#starts.push(at + 1);
      this.#scanned = at + 1;
    }
  }
}

// The fallback hunk (1-based starts relative to the window, as `structuredPatch` gives them).
function wholeHunk(before: string, after: string): StructuredPatchHunk {
  const removed = linesOf(before, '-');
  const added = linesOf(after, '+');
  return {
    oldStart: 1,
    oldLines: removed.count,
    newStart: 1,
    newLines: added.count,
    lines: [...removed.lines, ...added.lines],
  };
}

function linesOf(text: string, sign: '-' | '+'): { lines: string[]; count: number } {
  if (text === '') return { lines: [], count: 0 };
  const endsWithNewline = text.endsWith('\n');
  const split = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const lines = split.map((line) => sign + line);
  if (!endsWithNewline) lines.push('\\ No newline at end of file');
  return { lines, count: split.length };
}
