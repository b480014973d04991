import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { effectArgsDigest, effectIdempotencyKey } from './effect-identity.js';
import { platformSha256 } from './sha256.js';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('effectArgsDigest', () => {
  it('is a hex SHA-256 that ignores key order', async () => {
    const a = await effectArgsDigest({ path: 'a.txt', content: 'x', options: { b: 1, a: 2 } });
    const b = await effectArgsDigest({ options: { a: 2, b: 1 }, content: 'x', path: 'a.txt' });

    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(b);
  });

  it.each<[string, unknown]>([
    ['a changed value', { path: 'a.txt', content: 'y' }],
    ['an added key', { path: 'a.txt', content: 'x', append: true }],
    ['a number for a string', { path: 'a.txt', content: 1 }],
  ])('changes with %s', async (_case, args) => {
    const base = await effectArgsDigest({ path: 'a.txt', content: 'x' });

    expect(await effectArgsDigest(args)).not.toBe(base);
  });

  it('tells two lone surrogates apart', async () => {
    expect(await effectArgsDigest({ t: '\ud800' })).not.toBe(
      await effectArgsDigest({ t: '\ud801' }),
    );
  });

  it('reports arguments with no canonical form', async () => {
    expect(await effectArgsDigest({ at: new Date(0) })).toBe('args_unencodable');
  });

  it('reports a runtime with no SHA-256 at all instead of guessing', async () => {
    vi.stubGlobal('crypto', undefined);
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(() => undefined);

    expect(await effectArgsDigest({})).toBe('digest_unavailable');
  });
});

describe('effectIdempotencyKey', () => {
  it('is stable per run and call, and differs across either', async () => {
    const key = await effectIdempotencyKey('run-1', 'call-1');

    expect(await effectIdempotencyKey('run-1', 'call-1')).toBe(key);
    expect(await effectIdempotencyKey('run-1', 'call-2')).not.toBe(key);
    expect(await effectIdempotencyKey('run-2', 'call-1')).not.toBe(key);
    expect(key).toMatch(/^toolhost-[A-Za-z0-9_-]{43}$/);
  });

  it('length-prefixes the ids, so no split of the same text collides', async () => {
    expect(await effectIdempotencyKey('ab', 'c')).not.toBe(await effectIdempotencyKey('a', 'bc'));
  });

  it('carries neither id readably', async () => {
    const key = await effectIdempotencyKey('run-secret-name', 'toolu_01abc');

    expect(key).not.toContain('secret');
    expect(key).not.toContain('toolu');
  });

  it('is the base64url SHA-256 of the length-prefixed fields', async () => {
    const { createHash } = await import('node:crypto');
    const field = (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return Buffer.concat([length, bytes]);
    };
    const input = Buffer.concat([field('toolhost-idempotency-key-v1'), field('r'), field('c')]);

    const key = await effectIdempotencyKey('r', 'c');

    expect(key).toBe(`toolhost-${createHash('sha256').update(input).digest('base64url')}`);
  });
});

describe("the platform's synchronous SHA-256", () => {
  it('is found without WebCrypto and gives the same digests, so journals replay across either', async () => {
    const args = { path: 'a.txt', content: 'x', env: { TOKEN: 's3cret' } };
    const viaWebCrypto = await effectArgsDigest(args);
    const keyViaWebCrypto = await effectIdempotencyKey('run', 'call');
    // With both present the synchronous one is used: WebCrypto is never reached.
    const subtle = vi.spyOn(globalThis.crypto.subtle, 'digest');

    expect(platformSha256()).toBeTypeOf('function');
    expect(await effectArgsDigest(args)).toBe(viaWebCrypto);
    expect(subtle).not.toHaveBeenCalled();
    vi.stubGlobal('crypto', undefined);
    expect(await effectArgsDigest(args)).toBe(viaWebCrypto);
    expect(await effectIdempotencyKey('run', 'call')).toBe(keyViaWebCrypto);
  });
});

describe('a store-supplied SHA-256', () => {
  // node:crypto's, as the SQLite journal supplies it: only in this test, never in core's source.
  const nodeSha256 = (data: Uint8Array): Uint8Array =>
    new Uint8Array(createHash('sha256').update(data).digest());

  it('gives the same digest and key as WebCrypto, so journals replay across either', async () => {
    const args = { command: 'git', args: ['commit'], env: { TOKEN: 's3cret' } };
    const used = vi.fn(nodeSha256);

    expect(await effectArgsDigest(args, used)).toBe(await effectArgsDigest(args));
    expect(await effectIdempotencyKey('run', 'call', used)).toBe(
      await effectIdempotencyKey('run', 'call'),
    );
    expect(used).toHaveBeenCalledTimes(2);
  });

  it('is used even where there is no WebCrypto', async () => {
    vi.stubGlobal('crypto', undefined);

    expect(await effectArgsDigest({ a: 1 }, nodeSha256)).toMatch(/^[0-9a-f]{64}$/);
  });
});
