import { describe, expect, it } from 'vitest';
import { isBinaryHead } from './binary-sniff.js';
import { BINARY_SNIFF_BYTES } from './read-file.js';

describe('isBinaryHead', () => {
  it('calls a NUL in the leading bytes binary', () => {
    const bytes = Buffer.from('text\u0000more');

    expect(isBinaryHead(bytes, bytes.length)).toBe(true);
  });

  it('calls UTF-8 text without a NUL text', () => {
    const bytes = Buffer.from('héllo wörld ✓\n');

    expect(isBinaryHead(bytes, bytes.length)).toBe(false);
  });

  it('looks only at the sniffed head and the bytes read, not at stale buffer bytes', () => {
    const bytes = Buffer.alloc(BINARY_SNIFF_BYTES + 10, 'a');
    bytes[BINARY_SNIFF_BYTES + 1] = 0;

    expect(isBinaryHead(bytes, bytes.length)).toBe(false);
    expect(isBinaryHead(Buffer.from('ab\u0000'), 2)).toBe(false);
  });
});
