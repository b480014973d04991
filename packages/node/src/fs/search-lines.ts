import type { FileSearchMatch } from '@toolhost/core/host';
import type { MatchSpan } from './search-matcher.js';

/** Longest line text one match carries; a minified line is cut around the match. */
export const MAX_MATCH_LINE_CHARS = 240;
// How much of a cut line comes before the match.
const LEAD_CHARS = 60;
const NEWLINE = 10;

/** One file's content as lines: its bytes (a literal search) or its decoded text. */
export interface LineSource {
  readonly length: number;
  /** Index of the next line break at or after `from`, or `length`. */
  breakAfter(from: number): number;
  /** Where the line holding `at` starts. */
  lineStart(at: number): number;
  text(start: number, end: number): string;
}

/** Lines over a file's bytes; text is decoded only for the lines reported. */
export function byteLines(bytes: Buffer): LineSource {
  return {
    length: bytes.length,
    breakAfter(from) {
      const found = bytes.indexOf(NEWLINE, from);
      return found === -1 ? bytes.length : found;
    },
    lineStart: (at) => (at === 0 ? 0 : bytes.lastIndexOf(NEWLINE, at - 1) + 1),
    text: (start, end) => bytes.toString('utf8', start, end),
  };
}

/** Lines over a decoded text. */
export function textLines(text: string): LineSource {
  return {
    length: text.length,
    breakAfter(from) {
      const found = text.indexOf('\n', from);
      return found === -1 ? text.length : found;
    },
    lineStart: (at) => (at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1),
    text: (start, end) => text.slice(start, end),
  };
}

/** How one file is searched: its matcher over the lines, and how much to report. */
export interface FileScan {
  readonly path: string;
  readonly lines: LineSource;
  readonly find: (from: number) => MatchSpan | undefined;
  /** Re-tests one line alone, for a match that ran past the end of its line; a 0-based index. */
  readonly inLine?: ((line: string) => number | undefined) | undefined;
  readonly contextLines: number;
  /** The most matching lines to report from this file. */
  readonly limit: number;
}

/**
 * The matching lines of one file, each reported once at its first match (as `grep -n` does),
 * with line numbers counted only as far as the last match.
 */
export function scanFile(scan: FileScan): FileSearchMatch[] {
  const { lines, find, limit } = scan;
  const found: FileSearchMatch[] = [];
  let counted = { position: 0, line: 1 };
  let from = 0;
  while (found.length < limit && from <= lines.length) {
    const span = find(from);
    if (span === undefined) break;
    const start = lines.lineStart(span.start);
    // An empty match after the final line break is not a line.
    if (start === lines.length && start > 0) break;
    const end = lines.breakAfter(span.start);
    const raw = lines.text(start, end);
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const column = span.end <= end ? lines.text(start, span.start).length : scan.inLine?.(text);
    if (column !== undefined) {
      counted = countLines(lines, counted, start);
      found.push(matchOf(scan, { start, end, line: counted.line, text, column }));
    }
    from = end + 1;
  }
  return found;
}

function countLines(
  lines: LineSource,
  counted: { position: number; line: number },
  upTo: number,
): { position: number; line: number } {
  let { position, line } = counted;
  for (;;) {
    const next = lines.breakAfter(position);
    if (next >= upTo) return { position, line };
    line += 1;
    position = next + 1;
  }
}

interface FoundLine {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly text: string;
  readonly column: number;
}

function matchOf(scan: FileScan, found: FoundLine): FileSearchMatch {
  const match = {
    path: scan.path,
    line: found.line,
    column: found.column + 1,
    text: cutAround(found.text, found.column),
  };
  if (scan.contextLines === 0) return match;
  return {
    ...match,
    before: linesBefore(scan.lines, found.start, scan.contextLines),
    after: linesAfter(scan.lines, found.end, scan.contextLines),
  };
}

function linesBefore(lines: LineSource, start: number, count: number): string[] {
  const before: string[] = [];
  let end = start - 1;
  while (before.length < count && end >= 0) {
    const lineStart = lines.lineStart(end);
    before.unshift(contextText(lines.text(lineStart, end)));
    end = lineStart - 1;
  }
  return before;
}

function linesAfter(lines: LineSource, end: number, count: number): string[] {
  const after: string[] = [];
  let start = end + 1;
  while (after.length < count && start < lines.length) {
    const lineEnd = lines.breakAfter(start);
    after.push(contextText(lines.text(start, lineEnd)));
    start = lineEnd + 1;
  }
  return after;
}

function contextText(raw: string): string {
  return cutAround(raw.endsWith('\r') ? raw.slice(0, -1) : raw, 0);
}

/** A line cut to `MAX_MATCH_LINE_CHARS` around `column` (0-based), `…` marking each cut end. */
export function cutAround(text: string, column: number): string {
  if (text.length <= MAX_MATCH_LINE_CHARS) return text;
  let start = Math.max(0, Math.min(column - LEAD_CHARS, text.length - MAX_MATCH_LINE_CHARS));
  // Never split a surrogate pair at either end.
  if (isLowSurrogate(text.charCodeAt(start))) start += 1;
  let end = Math.min(text.length, start + MAX_MATCH_LINE_CHARS);
  if (isLowSurrogate(text.charCodeAt(end))) end -= 1;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
