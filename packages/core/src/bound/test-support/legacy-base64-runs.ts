// A frozen copy of the base64-run scan as it was before it moved to sticky native regexes
// (`../base64-runs.ts`): the equivalence test checks the new scan against it. Test-only.
import { INLINE_BASE64_MIN_RUN, inlineMediaMarker } from '../backstop-inline-media.js';

const EQUALS = 0x3d;

/** The old `replaceBase64Runs`, unchanged. */
export function legacyReplaceBase64Runs(text: string): string {
  let output = '';
  let copiedUpTo = 0;
  let probe = INLINE_BASE64_MIN_RUN - 1;
  while (probe < text.length) {
    if (classOf(text.charCodeAt(probe)) === 0) {
      probe += INLINE_BASE64_MIN_RUN;
      continue;
    }
    let start = probe;
    let seen = 0;
    while (start > copiedUpTo) {
      const unitClass = classOf(text.charCodeAt(start - 1));
      if (unitClass === 0) break;
      seen |= unitClass;
      start--;
    }
    let end = probe;
    while (end < text.length) {
      const unitClass = classOf(text.charCodeAt(end));
      if (unitClass === 0) break;
      seen |= unitClass;
      end++;
    }
    // Up to two `=` of padding belong to the run they end.
    for (let pad = 0; pad < 2 && text.charCodeAt(end) === EQUALS; pad++) end++;
    if (end - start >= INLINE_BASE64_MIN_RUN && seen === ENCODED) {
      output += text.slice(copiedUpTo, start) + inlineMediaMarker(end - start);
      copiedUpTo = end;
    }
    // A long run starting at `end` or later covers this probe or one of the next ones.
    probe = end + INLINE_BASE64_MIN_RUN - 1;
  }
  return copiedUpTo === 0 ? text : output + text.slice(copiedUpTo);
}

// Encoded bytes mix capitals, small letters and digits, and are not only hex digits: a long hex
// dump, a row of one letter or a ruler of `-` stays text. Bits a base64 character sets:
const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
const BEYOND_HEX = 8;
const ENCODED = UPPER | LOWER | DIGIT | BEYOND_HEX;
// Per ASCII code unit, its bits (0: not base64); standard and URL-safe alphabets.
const BASE64_CLASS = ((): Uint8Array => {
  const table = new Uint8Array(128);
  for (let unit = 0x41; unit <= 0x5a; unit++) table[unit] = UPPER | (unit > 0x46 ? BEYOND_HEX : 0);
  for (let unit = 0x61; unit <= 0x7a; unit++) table[unit] = LOWER | (unit > 0x66 ? BEYOND_HEX : 0);
  for (let unit = 0x30; unit <= 0x39; unit++) table[unit] = DIGIT;
  for (const unit of [0x2b, 0x2f, 0x2d, 0x5f]) table[unit] = BEYOND_HEX;
  return table;
})();

function classOf(unit: number): number {
  return unit < 128 ? (BASE64_CLASS[unit] ?? 0) : 0;
}
