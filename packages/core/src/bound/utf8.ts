// Core imports no platform module (engine purity), and the bounding hot path must not allocate a
// byte copy of a 64 MiB result just to measure it. Where the runtime has the WHATWG Encoding API
// (every browser, worker, Node, Deno, Bun) a native encoder counts through a small scratch buffer,
// ~10x faster than any scan JavaScript can write; elsewhere these count over UTF-16 code units.

const NON_ASCII = /[\u0080-\uffff]/g;

/** The UTF-8 byte length of `text` (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
  if (text.length < NATIVE_FROM) return scannedByteLength(text);
  const encoder = nativeEncoder();
  return encoder === undefined ? scannedByteLength(text) : encodedByteLength(text, encoder);
}

function scannedByteLength(text: string): number {
  NON_ASCII.lastIndex = 0;
  // Pure ASCII is the common case: one native scan, no per-character loop.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = NON_ASCII.lastIndex - 1;
  for (let index = bytes; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/** The structural slice of `TextEncoder` this needs, so core typechecks with no DOM or Node types. */
interface Utf8Encoder {
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

// Below this the scan is as fast as a native call; above it the encoder runs in chunks, each at
// most 3 bytes per code unit, so the scratch buffer stays small whatever the text.
const NATIVE_FROM = 4096;
const CHUNK_UNITS = 64 * 1024;
const SCRATCH_BYTES = CHUNK_UNITS * 3;
let scratch: Uint8Array | undefined;
let encoder: Utf8Encoder | null | undefined;

function nativeEncoder(): Utf8Encoder | undefined {
  if (encoder === undefined) {
    const Encoder = (globalThis as { TextEncoder?: new () => Utf8Encoder }).TextEncoder;
    encoder = typeof Encoder === 'function' ? new Encoder() : null;
  }
  return encoder ?? undefined;
}

function scratchBuffer(bytes: number): Uint8Array {
  scratch ??= new Uint8Array(SCRATCH_BYTES);
  return bytes === SCRATCH_BYTES ? scratch : scratch.subarray(0, bytes);
}

function encodedByteLength(text: string, native: Utf8Encoder): number {
  const buffer = scratchBuffer(SCRATCH_BYTES);
  let bytes = 0;
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + CHUNK_UNITS, text.length);
    // Never cut a surrogate pair: each half alone would count as U+FFFD.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    bytes += native.encodeInto(
      start === 0 && end === text.length ? text : text.slice(start, end),
      buffer,
    ).written;
    start = end;
  }
  return bytes;
}

/**
 * The largest end index ≤ `text.length` such that `text.slice(start, end)` fits in `maxBytes`
 * UTF-8 bytes and `end` does not split a surrogate pair.
 */
export function forwardCut(text: string, start: number, maxBytes: number): number {
  const native = maxBytes >= NATIVE_FROM ? nativeEncoder() : undefined;
  if (native !== undefined && maxBytes <= SCRATCH_BYTES) {
    // A window of maxBytes units holds the cut (a unit is at least a byte). A high surrogate
    // ending the window could not fit whatever follows it, so it is left out, never halved.
    let end = Math.min(text.length, start + maxBytes);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    // encodeInto converts whole code points only, and `read` is the units it consumed.
    return start + native.encodeInto(text.slice(start, end), scratchBuffer(maxBytes)).read;
  }
  let bytes = 0;
  let index = start;
  while (index < text.length) {
    const unit = text.charCodeAt(index);
    let width = 1;
    let units = 1;
    if (unit >= 0x80) {
      if (unit < 0x800) width = 2;
      else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
        width = 4;
        units = 2;
      } else width = 3;
    }
    if (bytes + width > maxBytes) break;
    bytes += width;
    index += units;
  }
  return index;
}

/**
 * The smallest start index ≥ `floor` such that `text.slice(start)` fits in `maxBytes` UTF-8 bytes
 * and `start` does not split a surrogate pair.
 */
export function backwardCut(text: string, floor: number, maxBytes: number): number {
  if (maxBytes >= NATIVE_FROM && nativeEncoder() !== undefined) {
    // The last maxBytes units fit only if each is one byte: then no pair is split and the walk
    // below would stop at the same index. Anything wider takes the walk.
    const low = Math.max(floor, text.length - maxBytes);
    if (utf8ByteLength(text.slice(low)) <= maxBytes) return low;
  }
  let bytes = 0;
  let index = text.length;
  while (index > floor) {
    const unit = text.charCodeAt(index - 1);
    let width = 1;
    let units = 1;
    if (unit >= 0x80) {
      if (unit < 0x800) width = 2;
      else if (
        unit >= 0xdc00 &&
        unit <= 0xdfff &&
        index - 2 >= floor &&
        isHighSurrogate(text.charCodeAt(index - 2))
      ) {
        width = 4;
        units = 2;
      } else width = 3;
    }
    if (bytes + width > maxBytes) break;
    bytes += width;
    index -= units;
  }
  return index;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
