// Bytes of source code and prose from the most to the least frequent (rarer ones are unlisted):
// the finder looks for the needle's rarest byte with `memchr`, the way ripgrep's prefilter does.
const COMMON_BYTES = Buffer.from(
  ' etaoinsrlcdhupmfg\nbyv.w,;()=_\'"kx/-:{}0123456789\tjqzACSTEIRNOPDLMF*<>[]BUHWGV#+!|&?$%@\r',
  'latin1',
);
const RANK = new Uint8Array(256).fill(COMMON_BYTES.length);
COMMON_BYTES.forEach((byte, index) => {
  RANK[byte] = index;
});
// Past this many candidates without a match in one call, the rare byte is not rare in this file.
const MISSES_BEFORE_FALLBACK = 16;

/** The first index of `needle` in `bytes` at or after `from`, or -1: `Buffer#indexOf`'s answer. */
export type BytesFinder = (bytes: Buffer, from: number) => number;

/**
 * A finder for one needle. Most files hold no match, and there `indexOf` of a multi-byte needle
 * cost ten times a `memchr` of one byte; so it looks for the needle's rarest byte and compares the
 * needle around each one found, falling back to `indexOf` where that byte turns out common.
 */
export function createBytesFinder(needle: Buffer): BytesFinder {
  if (needle.length <= 1) return (bytes, from) => bytes.indexOf(needle, from);
  const offset = rarestByte(needle);
  const rare = needle[offset] ?? 0;
  return (bytes, from) => {
    let misses = 0;
    for (let at = bytes.indexOf(rare, from + offset); at !== -1; at = bytes.indexOf(rare, at + 1)) {
      const start = at - offset;
      // No later candidate fits either.
      if (start + needle.length > bytes.length) return -1;
      if (matchesAt(bytes, needle, start)) return start;
      misses += 1;
      // Every start up to here was ruled out: the next match, if any, is after it.
      if (misses > MISSES_BEFORE_FALLBACK) return bytes.indexOf(needle, start + 1);
    }
    return -1;
  };
}

function rarestByte(needle: Buffer): number {
  let offset = 0;
  for (let index = 1; index < needle.length; index += 1) {
    if ((RANK[needle[index] ?? 0] ?? 0) > (RANK[needle[offset] ?? 0] ?? 0)) offset = index;
  }
  return offset;
}

function matchesAt(bytes: Buffer, needle: Buffer, start: number): boolean {
  for (let index = 0; index < needle.length; index += 1) {
    if (bytes[start + index] !== needle[index]) return false;
  }
  return true;
}
