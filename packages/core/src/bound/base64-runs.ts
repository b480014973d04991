import { INLINE_BASE64_MIN_RUN, inlineMediaMarker } from './inline-media-marker.js';

const MIN = INLINE_BASE64_MIN_RUN;

/**
 * `text` with every bare base64 run of `INLINE_BASE64_MIN_RUN` characters or more that looks like
 * encoded bytes replaced by `inlineMediaMarker`; `text` itself when there is none.
 *
 * Any run of `MIN` base64 characters covers one of the positions `MIN - 1, 2·MIN - 1, …`, so only
 * those are sampled. A sampled base64 character is widened to its run, and the run is replaced
 * when it is long enough and mixes every class of encoded bytes. The runs are scanned by sticky
 * class regexes: native code reads a run several times faster than a `charCodeAt` loop, and each
 * unit is read once by the widening (a 1 MiB run of one letter costs one scan).
 */
export function replaceBase64Runs(text: string): string {
  let output = '';
  let copiedUpTo = 0;
  let probe = MIN - 1;
  while (probe < text.length) {
    if (!isBase64Unit(text.charCodeAt(probe))) {
      probe += MIN;
      continue;
    }
    const run = runAround(text, probe, copiedUpTo);
    let end = run.end;
    // Up to two `=` of padding belong to the run they end.
    for (let pad = 0; pad < 2 && text.charCodeAt(end) === EQUALS; pad++) end++;
    if (end - run.start >= MIN && looksEncoded(text, run)) {
      output += text.slice(copiedUpTo, run.start) + inlineMediaMarker(end - run.start);
      copiedUpTo = end;
    }
    // A long run starting at `end` or later covers this probe or one of the next ones.
    probe = end + MIN - 1;
  }
  return copiedUpTo === 0 ? text : output + text.slice(copiedUpTo);
}

/** True for a unit of the standard or URL-safe base64 alphabet: `A-Z a-z 0-9 + / - _`. */
export function isBase64Unit(unit: number): boolean {
  return unit < 128 && BASE64[unit] === 1;
}

/** One base64 run `[start, end)`, and whether it holds a capital, when finding it told. */
interface Run {
  readonly start: number;
  readonly end: number;
  readonly upper: boolean | undefined;
}

// The run holding `probe` (a base64 unit) starts after the last other unit before it, which lies
// at most `MIN` back: the previous probe was outside any run, or past the end of the last one.
// A short way back is walked unit by unit (text is mostly short runs, and one regex call per
// word would cost more than the walk); a longer run is found by reading forward from `MIN` back,
// first without capitals: a run with none (a row of one letter, a hex dump) is then found and
// judged in one native pass.
function runAround(text: string, probe: number, copiedUpTo: number): Run {
  const near = Math.max(copiedUpTo, probe - NEAR);
  let start = probe;
  while (start > near && isBase64Unit(text.charCodeAt(start - 1))) start--;
  if (start > near || start === copiedUpTo || !isBase64Unit(text.charCodeAt(start - 1))) {
    return { start, end: runEnd(text, probe), upper: undefined };
  }
  start = Math.max(copiedUpTo, probe - MIN + 1);
  if (start > copiedUpTo && isBase64Unit(text.charCodeAt(start - 1))) {
    // Not reached from the sampling above; kept so the scan never depends on that argument.
    while (start > copiedUpTo && isBase64Unit(text.charCodeAt(start - 1))) start--;
  }
  for (;;) {
    const stop = stickyEnd(NO_UPPER, text, start);
    if (!isBase64Unit(text.charCodeAt(stop))) {
      if (stop > probe) return { start, end: stop, upper: false };
      start = stop + 1;
      continue;
    }
    const end = stickyEnd(RUN, text, stop);
    if (end > probe) return { start, end, upper: true };
    start = end + 1;
  }
}

// How far back a run is walked unit by unit before it counts as long.
const NEAR = 64;

// Encoded bytes mix capitals, small letters and digits, and are not only hex digits: a long hex
// dump, a row of one letter or a ruler of `-` stays text. Each class is present when the run
// without it stops before the run's end.
function looksEncoded(text: string, { start, end, upper }: Run): boolean {
  return (
    (upper ?? stickyEnd(NO_UPPER, text, start) < end) &&
    stickyEnd(NO_LOWER, text, start) < end &&
    stickyEnd(NO_DIGIT, text, start) < end &&
    stickyEnd(ONLY_HEX, text, start) < end
  );
}

// Where the run through `from` ends: a short run is walked, a long one read natively.
function runEnd(text: string, from: number): number {
  const near = Math.min(text.length, from + NEAR);
  let end = from;
  while (end < near && isBase64Unit(text.charCodeAt(end))) end++;
  return end < near ? end : stickyEnd(RUN, text, end);
}

function stickyEnd(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  pattern.test(text);
  return pattern.lastIndex;
}

// Sticky and starred: each always matches, and `lastIndex` is where its class first fails.
const RUN = /[A-Za-z0-9+/_-]*/y;
const NO_UPPER = /[a-z0-9+/_-]*/y;
const NO_LOWER = /[A-Z0-9+/_-]*/y;
const NO_DIGIT = /[A-Za-z+/_-]*/y;
const ONLY_HEX = /[A-Fa-f0-9]*/y;

const EQUALS = 0x3d;

const BASE64 = ((): Uint8Array => {
  const table = new Uint8Array(128);
  for (const unit of '+/-_0123456789') table[unit.charCodeAt(0)] = 1;
  for (let unit = 0x41; unit <= 0x5a; unit++) table[unit] = 1;
  for (let unit = 0x61; unit <= 0x7a; unit++) table[unit] = 1;
  return table;
})();
