import { describe, expect, it } from 'vitest';
import { createOutputTail } from './output-tail.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('createOutputTail', () => {
  it('keeps the last complete non-blank line across chunks', () => {
    const tail = createOutputTail();

    tail.observe({ stream: 'stdout', chunk: bytes('step 1\nstep') });
    tail.observe({ stream: 'stdout', chunk: bytes(' 2\n\n   \npartial') });

    expect(tail.lastLine()).toBe('step 2');
  });

  it('never splits a code point across chunks', () => {
    const tail = createOutputTail();
    const encoded = bytes('héllo wörld\n');

    tail.observe({ stream: 'stderr', chunk: encoded.subarray(0, 2) });
    tail.observe({ stream: 'stderr', chunk: encoded.subarray(2) });

    expect(tail.lastLine()).toBe('héllo wörld');
  });

  it('shows neither a secret shape nor a live escape sequence', () => {
    const tail = createOutputTail();

    tail.observe({ stream: 'stdout', chunk: bytes('\x1b]0;pwned\x07 token=abc123secret\n') });

    expect(tail.lastLine()).toBe('^[]0;pwned^G token=[redacted]');
  });

  it('forgets the previous command on reset', () => {
    const tail = createOutputTail();
    tail.observe({ stream: 'stdout', chunk: bytes('old\n') });

    tail.reset();

    expect(tail.lastLine()).toBeUndefined();
  });
});
