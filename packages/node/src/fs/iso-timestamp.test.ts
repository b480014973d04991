import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './iso-timestamp.js';

// What a listing printed before: Node's `stats.mtime` is `new Date(Math.round(mtimeMs))`.
const viaDate = (timeMs: number): string => new Date(Math.round(timeMs)).toISOString();

describe('isoTimestamp', () => {
  it('matches Date#toISOString at the edges of the four-digit years and of a day', () => {
    for (const timeMs of [
      0, -1, -0.5, 0.5, 0.4999, 1.5, -1.5, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999,
      4_107_542_399_999, -62_167_219_200_000, -62_167_219_200_001, -62_135_596_800_000,
      253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15, 1_796_147_979_713.2532,
    ])
      expect(isoTimestamp(timeMs), String(timeMs)).toBe(viaDate(timeMs));
  });

  it('matches Date#toISOString on random times across the whole range', () => {
    let seed = 20;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let index = 0; index < 20_000; index += 1) {
      const span = index % 2 === 0 ? 8.64e15 : 4e12;
      const timeMs = (random() * 2 - 1) * span + random();
      expect(isoTimestamp(timeMs)).toBe(viaDate(timeMs));
    }
  });

  it('throws where Date does: an invalid time', () => {
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => isoTimestamp(8.64e15 + 1)).toThrow(RangeError);
  });
});

describe('isoTimestamp with its per-second cache', () => {
  it('matches Date#toISOString across millisecond and second boundaries, in any order', () => {
    // Runs within one second (the cache hit), then across its edges both ways, negative too.
    const times: number[] = [];
    for (const second of [1_700_000_000, -1, 0, 86_399, -62_167_219_200, 253_402_300_799])
      for (const ms of [0, 1, 499.5, 998, 999, 999.4, 999.5, 1000, -0.5, -1, 1000.5])
        times.push(second * 1000 + ms);
    for (const timeMs of [...times, ...times.reverse(), 8.64e15, -8.64e15, 1.5, 1.5])
      expect(isoTimestamp(timeMs), String(timeMs)).toBe(viaDate(timeMs));
  });

  it('matches Date#toISOString on random times that repeat seconds', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    let base = 0;
    for (let index = 0; index < 20_000; index += 1) {
      if (index % 50 === 0) base = Math.round((random() * 2 - 1) * 8.64e15);
      const timeMs = base + (random() * 2 - 1) * 3000;
      if (Math.abs(timeMs) > 8.64e15) continue;
      expect(isoTimestamp(timeMs)).toBe(viaDate(timeMs));
    }
  });

  it('throws after a cached second as before: NaN and out of range', () => {
    isoTimestamp(1_700_000_000_000);
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => isoTimestamp(-8.64e15 - 1)).toThrow(RangeError);
    expect(isoTimestamp(1_700_000_000_000.4)).toBe(viaDate(1_700_000_000_000.4));
  });
});
