import type * as Re2js from 're2js';
import type { RE2JS } from 're2js';
import { ToolArgsInvalidError } from '@toolhost/core';
import { createBytesFinder } from './search-bytes-finder.js';

const TOOL_ID = 'search_files';

/** Where one match starts and ends in the searched text (bytes or UTF-16 units). */
export interface MatchSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * A compiled pattern. A case-sensitive literal searches the file's bytes as they are (no
 * decoding, so a file without the needle costs one `indexOf`); anything else searches the
 * decoded text, and `inLine` re-tests one line alone when a regex match ran past its end.
 */
export type SearchMatcher =
  | { readonly domain: 'bytes'; find(bytes: Buffer, from: number): MatchSpan | undefined }
  | {
      readonly domain: 'text';
      /** Prepares one file's text; the returned finder is only valid for that text. */
      over(text: string): (from: number) => MatchSpan | undefined;
      inLine(line: string): number | undefined;
    };

/**
 * Compiles a search pattern; a regex RE2 cannot take is a correctable args error. RE2 (~150 KiB
 * of JavaScript) loads with the first regex search, not with every host that could search.
 */
export async function compileMatcher(
  pattern: string,
  regex: boolean,
  caseSensitive: boolean,
): Promise<SearchMatcher> {
  if (regex) return regexMatcher(await import('re2js'), pattern, caseSensitive);
  if (caseSensitive) return bytesMatcher(Buffer.from(pattern, 'utf8'));
  // An escaped literal has no quantifier or alternation, so the backtracking engine has nothing
  // to backtrack over; RE2's case folding was forty times slower here.
  return nativeMatcher(new RegExp(escapeLiteral(pattern), 'giu'));
}

function bytesMatcher(needle: Buffer): SearchMatcher {
  const indexOf = createBytesFinder(needle);
  return {
    domain: 'bytes',
    find(bytes, from) {
      const start = indexOf(bytes, from);
      return start === -1 ? undefined : { start, end: start + needle.length };
    },
  };
}

function regexMatcher(
  { RE2JS: Engine, RE2JSException }: typeof Re2js,
  pattern: string,
  caseSensitive: boolean,
): SearchMatcher {
  let compiled: RE2JS;
  try {
    // MULTILINE: `^` and `$` are line ends, as in grep, though the whole file is searched at once.
    compiled = Engine.compile(
      pattern,
      Engine.MULTILINE | (caseSensitive ? 0 : Engine.CASE_INSENSITIVE),
    );
  } catch (error) {
    // Backreferences, lookaround and bad syntax: the model can rewrite the pattern.
    if (error instanceof RE2JSException)
      throw new ToolArgsInvalidError(
        TOOL_ID,
        [{ field: 'pattern', problem: 'unsupported_regex' }],
        {
          cause: error,
        },
      );
    throw error;
  }
  return {
    domain: 'text',
    over(text) {
      const matcher = compiled.matcher(text);
      return (from) =>
        matcher.find(from) ? { start: matcher.start(), end: matcher.end() } : undefined;
    },
    inLine(line) {
      const matcher = compiled.matcher(line);
      return matcher.find() ? matcher.start() : undefined;
    },
  };
}

function nativeMatcher(expression: RegExp): SearchMatcher {
  const findIn = (text: string, from: number): MatchSpan | undefined => {
    expression.lastIndex = from;
    const found = expression.exec(text);
    return found === null ? undefined : { start: found.index, end: found.index + found[0].length };
  };
  return {
    domain: 'text',
    over: (text) => (from) => findIn(text, from),
    inLine: (line) => findIn(line, 0)?.start,
  };
}

function escapeLiteral(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
