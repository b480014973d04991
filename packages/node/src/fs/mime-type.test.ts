import { describe, expect, it } from 'vitest';
import { mimeTypeOf } from './mime-type.js';

describe('mimeTypeOf', () => {
  it.each([
    ['a.png', true, 'image/png'],
    ['a.PDF', true, 'application/pdf'],
    ['a.ts', false, 'text/typescript'],
    ['a.json', false, 'application/json'],
    ['a.svg', false, 'image/svg+xml'],
    ['a.unknown', true, 'application/octet-stream'],
    ['a.unknown', false, 'text/plain'],
    ['a.png', false, 'text/plain'],
    ['a.ts', true, 'application/octet-stream'],
  ])('%s (binary %s) is %s', (file, binary, mimeType) => {
    expect(mimeTypeOf(file, binary)).toBe(mimeType);
  });
});
