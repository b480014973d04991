import { describe, expect, it } from 'vitest';
import { createBytesFinder } from './search-bytes-finder.js';

// A small deterministic generator: the same cases on every run.
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('createBytesFinder', () => {
  it('answers as Buffer#indexOf does, from every offset, over texts dense with near-misses', () => {
    const random = generator(7);
    const mismatches: string[] = [];
    let found = 0;
    // An alphabet of the needle's own bytes: candidates everywhere, few of them matches.
    for (const needle of ['needleFunction', 'FF', 'aF', 'x', 'Fab', 'ab\u00e9F', 'é']) {
      const bytes = Buffer.from(needle);
      const alphabet = [...new Set(bytes)];
      const find = createBytesFinder(bytes);
      for (let round = 0; round < 200; round += 1) {
        const length = Math.floor(random() * 120);
        const text = Buffer.from(
          Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)] ?? 0),
        );
        const planted = random() < 0.5 ? Buffer.concat([text, bytes, text]) : text;
        for (let from = 0; from <= planted.length + 1; from += 1) {
          const expected = planted.indexOf(bytes, from);
          if (expected !== -1) found += 1;
          if (find(planted, from) !== expected) mismatches.push(`${needle} ${from} ${planted}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // The cases did exercise matches, not only misses.
    expect(found).toBeGreaterThan(1000);
  });

  it('finds a needle at the very start and the very end, never one cut by the end', () => {
    const find = createBytesFinder(Buffer.from('needleFunction'));

    expect(find(Buffer.from('needleFunction()'), 0)).toBe(0);
    expect(find(Buffer.from('x = needleFunction'), 0)).toBe(4);
    expect(find(Buffer.from('x = needleFunc'), 0)).toBe(-1);
    expect(find(Buffer.from('needleFunction'), 1)).toBe(-1);
  });

  it('finds the match after many candidates of its rare byte (where it falls back to indexOf)', () => {
    const find = createBytesFinder(Buffer.from('needleFunction'));
    const bytes = Buffer.from(`${'F'.repeat(10_000)}needleFunction`);

    expect(find(bytes, 0)).toBe(10_000);
    expect(find(bytes, 10_001)).toBe(-1);
  });

  it('matches a multi-byte UTF-8 needle on its bytes', () => {
    const find = createBytesFinder(Buffer.from('größe'));
    const bytes = Buffer.from('die Größe, die größe');

    expect(find(bytes, 0)).toBe(bytes.indexOf(Buffer.from('größe')));
    expect(find(bytes, 0)).toBeGreaterThan(0);
  });
});
