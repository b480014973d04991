import { describe, expect, it } from 'vitest';
import { MAX_MATCH_LINE_CHARS, byteLines, cutAround, scanFile, textLines } from './search-lines.js';
import { compileMatcher } from './search-matcher.js';

async function scanBytes(content: string, needle: string, limit = 100, contextLines = 0) {
  const bytes = Buffer.from(content);
  const matcher = await compileMatcher(needle, false, true);
  if (matcher.domain !== 'bytes') throw new Error('expected a bytes matcher');
  return scanFile({
    path: 'f',
    lines: byteLines(bytes),
    find: (from) => matcher.find(bytes, from),
    contextLines,
    limit,
  });
}

async function scanText(content: string, pattern: string) {
  const matcher = await compileMatcher(pattern, true, true);
  if (matcher.domain !== 'text') throw new Error('expected a text matcher');
  return scanFile({
    path: 'f',
    lines: textLines(content),
    find: matcher.over(content),
    inLine: matcher.inLine,
    contextLines: 0,
    limit: 100,
  });
}

describe('scanFile', () => {
  it('numbers lines and columns from 1, counting UTF-16 units before a multibyte match', async () => {
    const found = await scanBytes('a\nbé x\n\nx', 'x');

    expect(found.map(({ line, column, text }) => [line, column, text])).toEqual([
      [2, 4, 'bé x'],
      [4, 1, 'x'],
    ]);
  });

  it('reports an empty regex match on each line but not past the final line break', async () => {
    expect((await scanText('a\nb\n', '^')).map((match) => match.line)).toEqual([1, 2]);
  });

  it('stops at its limit', async () => {
    expect(await scanBytes('x\nx\nx\n', 'x', 2)).toHaveLength(2);
  });

  it('gives context only from the file, fewer lines at its edges', async () => {
    const [first] = await scanBytes('x\nb\nc\n', 'x', 1, 2);

    expect(first).toMatchObject({ before: [], after: ['b', 'c'] });
  });
});

describe('cutAround', () => {
  it('leaves a short line alone', () => {
    expect(cutAround('short', 2)).toBe('short');
  });

  it('cuts a long line around the column and marks both cuts', () => {
    const line = `${'a'.repeat(1000)}X${'b'.repeat(1000)}`;

    const cut = cutAround(line, 1000);

    expect(cut).toContain('X');
    expect(cut.length).toBe(MAX_MATCH_LINE_CHARS + 2);
    expect(cut.startsWith('…') && cut.endsWith('…')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const line = '😀'.repeat(500);

    const cut = cutAround(line, 401);

    expect(cut.replace(/…/gu, '')).toMatch(/^(?:😀)+$/u);
  });
});
