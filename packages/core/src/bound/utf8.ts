// Core has no TextEncoder (engine purity), and the bounding hot path must not allocate a byte
// copy of a 64 MiB result just to measure it: these count UTF-8 bytes over UTF-16 code units.

const NON_ASCII = /[^\u0000-\u007f]/g; // eslint-disable-line no-control-regex

/** The UTF-8 byte length of `text` (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
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

/**
 * The largest end index ≤ `text.length` such that `text.slice(start, end)` fits in `maxBytes`
 * UTF-8 bytes and `end` does not split a surrogate pair.
 */
export function forwardCut(text: string, start: number, maxBytes: number): number {
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
