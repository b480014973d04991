import { describe, expect, it } from 'vitest';
import { decodeText } from './decode-text.js';

describe('decodeText', () => {
  it.each([
    ['empty', Buffer.alloc(0)],
    ['ASCII with control bytes', Buffer.from('a\tb\r\n\u0000\u007f', 'latin1')],
    ['Latin-1 range as UTF-8', Buffer.from('café ÿ', 'utf8')],
    ['bytes 0x80–0xff alone (invalid UTF-8)', Buffer.from([0x41, 0x80, 0xff, 0xc3])],
    ['a BOM and an emoji', Buffer.from('\ufeffhi 😀', 'utf8')],
    ['a truncated sequence at the end', Buffer.from([0x61, 0xe2, 0x82])],
    ['a large ASCII text', Buffer.from('line of text\n'.repeat(100_000))],
  ])('decodes %s as toString("utf8") does', (_label, bytes) => {
    expect(decodeText(bytes)).toBe(bytes.toString('utf8'));
  });
});
