import { BINARY_SNIFF_BYTES } from './read-file.js';

/** Spec §4's rule, as `read_file` applies it: a NUL in the leading bytes means binary. */
export function isBinaryHead(bytes: Uint8Array, length: number): boolean {
  const end = Math.min(length, BINARY_SNIFF_BYTES);
  // `indexOf` on a view, not a copy: the buffer is reused from file to file.
  return bytes.subarray(0, end).indexOf(0) !== -1;
}
