import { ToolArgsInvalidError } from '@toolhost/core';
import type { FsEdit } from '@toolhost/core/host';

const TOOL_ID = 'edit_file';

/** A changed span: `[origStart, origEnd)` of the original became `[newStart, newEnd)` of the result. */
export interface EditRegion {
  readonly origStart: number;
  readonly origEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
}

/** The edited text, how many occurrences were replaced, and where the result differs. */
export interface AppliedEdits {
  readonly text: string;
  readonly replacements: number;
  /** Sorted, disjoint; the diff's hunks are built around these, not from a whole-file diff. */
  readonly regions: readonly EditRegion[];
}

// The result as pieces: a run of the original (by offset) or text an edit inserted. Regions are
// read off it at the end, so a later edit that rewrites an earlier one's text still maps home.
type Piece = { readonly from: number; readonly length: number } | { readonly text: string };

/**
 * Applies the edits in order to one copy of `original`; throws before any write when one does not
 * match. Each `oldText` must occur exactly once (overlapping occurrences count) unless
 * `replaceAll`, which replaces every non-overlapping occurrence left to right. A later edit
 * matches the text earlier edits made. In a CRLF file an edit's bare `\n` means `\r\n`, tried
 * first; and a final newline the edits removed is put back, so neither changes by accident.
 */
export function applyEdits(original: string, edits: readonly FsEdit[]): AppliedEdits {
  // Only an edit with a line break needs the file's line ending, so only then is it counted.
  const crlf = edits.some(hasLineBreak) && dominantLineEnding(original) === '\r\n';
  let current = original;
  let pieces: Piece[] = original === '' ? [] : [{ from: 0, length: original.length }];
  let replacements = 0;
  for (const [index, edit] of edits.entries()) {
    const { oldText, newText, positions } = locate(current, edit, crlf, index);
    pieces = splice(pieces, positions, oldText.length, newText);
    current = replaceAt(current, positions, oldText.length, newText);
    replacements += positions.length;
  }
  if (original.endsWith('\n') && current !== '' && !current.endsWith('\n')) {
    const ending = original.endsWith('\r\n') ? '\r\n' : '\n';
    pieces.push({ text: ending });
    current += ending;
  }
  return { text: current, replacements, regions: regionsOf(pieces, original.length) };
}

interface Located {
  readonly oldText: string;
  readonly newText: string;
  readonly positions: readonly number[];
}

function locate(current: string, edit: FsEdit, crlf: boolean, index: number): Located {
  const forms: FsEdit[] = [edit];
  if (crlf && hasLineBreak(edit)) {
    const converted = { ...edit, oldText: toCrlf(edit.oldText), newText: toCrlf(edit.newText) };
    // The raw form stays a fallback only when it searches for something else (a mixed file).
    if (converted.oldText === edit.oldText) forms[0] = converted;
    else forms.unshift(converted);
  }
  let count = 0;
  for (const form of forms) {
    const positions = occurrences(current, form.oldText, form.replaceAll === true);
    count = positions.length;
    if (count === 0) continue;
    if (count > 1 && form.replaceAll !== true) break;
    return { oldText: form.oldText, newText: form.newText, positions };
  }
  // Loop-correctable, and it names only the edit's index: the text is the model's own.
  const problem = count === 0 ? 'not found' : `found ${count} times`;
  throw new ToolArgsInvalidError(TOOL_ID, [{ field: `edits.${index}.oldText`, problem }]);
}

// Every occurrence for `replaceAll` (non-overlapping); else every start (overlapping), since
// `aa` in `aaa` is ambiguous.
function occurrences(text: string, needle: string, all: boolean): number[] {
  const positions: number[] = [];
  const step = all ? needle.length : 1;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + step)) {
    positions.push(at);
  }
  return positions;
}

function replaceAt(
  text: string,
  positions: readonly number[],
  length: number,
  insert: string,
): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const at of positions) {
    parts.push(text.slice(cursor, at), insert);
    cursor = at + length;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

function splice(
  pieces: readonly Piece[],
  positions: readonly number[],
  length: number,
  insert: string,
): Piece[] {
  const out: Piece[] = [];
  let index = 0;
  let pieceStart = 0;
  let cursor = 0;
  // Copies (keep) or drops (skip) the pieces' text up to `end`, splitting a piece it ends inside.
  const advance = (end: number, keep: boolean): void => {
    while (cursor < end) {
      const piece = pieces[index];
      if (piece === undefined) return;
      const pieceEnd = pieceStart + lengthOf(piece);
      const stop = Math.min(end, pieceEnd);
      if (keep) out.push(slicePiece(piece, cursor - pieceStart, stop - pieceStart));
      cursor = stop;
      if (cursor === pieceEnd) {
        index += 1;
        pieceStart = pieceEnd;
      }
    }
  };
  for (const at of positions) {
    advance(at, true);
    advance(at + length, false);
    if (insert !== '') out.push({ text: insert });
  }
  advance(Number.POSITIVE_INFINITY, true);
  return out;
}

function regionsOf(pieces: readonly Piece[], originalLength: number): EditRegion[] {
  const regions: EditRegion[] = [];
  let orig = 0;
  let position = 0;
  let open: { origStart: number; newStart: number } | undefined;
  for (const piece of pieces) {
    if ('text' in piece) {
      open ??= { origStart: orig, newStart: position };
      position += piece.text.length;
      continue;
    }
    // A kept run that does not continue where the last ended: the gap was deleted.
    if (piece.from !== orig) open ??= { origStart: orig, newStart: position };
    if (open !== undefined) {
      regions.push({ ...open, origEnd: piece.from, newEnd: position });
      open = undefined;
    }
    orig = piece.from + piece.length;
    position += piece.length;
  }
  if (open !== undefined || orig !== originalLength) {
    const start = open ?? { origStart: orig, newStart: position };
    regions.push({ ...start, origEnd: originalLength, newEnd: position });
  }
  return regions;
}

function lengthOf(piece: Piece): number {
  return 'text' in piece ? piece.text.length : piece.length;
}

function slicePiece(piece: Piece, start: number, end: number): Piece {
  if ('text' in piece) return { text: piece.text.slice(start, end) };
  return { from: piece.from + start, length: end - start };
}

// CRLF when most line breaks are; a mixed file keeps each edit's own endings as a fallback.
function dominantLineEnding(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf += 1;
    else lf += 1;
  }
  return crlf > lf ? '\r\n' : '\n';
}

function hasLineBreak(edit: FsEdit): boolean {
  return edit.oldText.includes('\n') || edit.newText.includes('\n');
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
