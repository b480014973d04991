import { describe, expect, it } from 'vitest';
import { defaultRandomNonce } from './random-nonce.js';

describe('defaultRandomNonce', () => {
  it('returns 128 bits of hex', () => {
    expect(defaultRandomNonce()).toMatch(/^[0-9a-f]{32}$/);
  });

  it('never repeats across a thousand draws', () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => defaultRandomNonce()));

    expect(nonces.size).toBe(1000);
  });
});
