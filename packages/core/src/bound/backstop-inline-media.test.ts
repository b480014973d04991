import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backstopInlineMedia,
  INLINE_BASE64_MIN_RUN,
  scrubInlineMedia,
} from './backstop-inline-media.js';

// Deterministic bytes that encode to a base64 run mixing every character class.
function bytes(length: number, seed = 7): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    out[index] = state >>> 24;
  }
  return out;
}

function base64(data: Uint8Array): string {
  let binary = '';
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const PNG = `data:image/png;base64,${base64(bytes(600))}`;
const BLOB = base64(bytes(3 * 1024)); // exactly 4096 characters

describe('scrubInlineMedia: what is replaced', () => {
  it.each([
    ['a base64 data: URI', `<img src="${PNG}" alt="x">`, PNG],
    [
      'a short data: URI',
      'icon: data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      'R0lGODlhAQABAAAAACw=',
    ],
    [
      'a percent-encoded data: URI',
      "url('data:text/plain;charset=utf-8,Hello%20World')",
      'Hello%20World',
    ],
    ['a data: URI with only a parameter', 'x data:;base64,SGVsbG8gV29ybGQ= y', 'SGVsbG8gV29ybGQ='],
    ['a bare base64 run of exactly 4 KiB', `blob ${BLOB} end`, BLOB],
    ['a padded bare run', `"${base64(bytes(3 * 1024 + 1))}"`, base64(bytes(3 * 1024 + 1))],
    [
      'a base64url run',
      `token=${BLOB.replaceAll('+', '-').replaceAll('/', '_')};`,
      BLOB.replaceAll('+', '-').replaceAll('/', '_'),
    ],
  ])('replaces %s', (_case, text, media) => {
    const scrubbed = scrubInlineMedia(text);

    expect(scrubbed).not.toContain(media);
    expect(scrubbed).toContain('[inline media removed:');
    expect(scrubbed).toContain('media goes through the media store');
  });

  it('keeps the text around the media and says how much was removed', () => {
    const scrubbed = scrubInlineMedia(`before ${BLOB} after`);

    expect(scrubbed).toBe(
      'before [inline media removed: 4096 chars; media goes through the media store as a media:// handle] after',
    );
  });

  it('replaces every occurrence, in order', () => {
    const scrubbed = scrubInlineMedia(`a ${PNG} b ${BLOB} c ${PNG} d`);

    expect(scrubbed.match(/\[inline media removed/g)).toHaveLength(3);
    expect(scrubbed.startsWith('a [inline')).toBe(true);
    expect(scrubbed.endsWith('] d')).toBe(true);
  });

  it('is idempotent', () => {
    const once = scrubInlineMedia(`a ${PNG} b ${BLOB}`);

    expect(scrubInlineMedia(once)).toBe(once);
  });
});

describe('scrubInlineMedia: what stays', () => {
  it.each([
    ['a bare run one short of 4 KiB', BLOB.slice(0, INLINE_BASE64_MIN_RUN - 1)],
    ['a git SHA', 'commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)'],
    ['a sha256 digest', `sha256:${'a3f1'.repeat(16)}`],
    ['a hex dump past 4 KiB', '0123456789abcdefABCDEF'.repeat(400)],
    ['a UUID', 'X-Request-Id: 123e4567-e89b-12d3-a456-426614174000'],
    ['a media handle', `media://sha256-${'0f'.repeat(32)}`],
    ['an npm integrity hash', `integrity sha512-${base64(bytes(64))}`],
    ['an ssh public key', `ssh-ed25519 ${base64(bytes(51))} dev@laptop`],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9Pl'],
    ['one letter repeated', 'a'.repeat(10_000)],
    ['a ruler of dashes', '-'.repeat(6000)],
    ['letters and digits without capitals', 'abc123'.repeat(1000)],
    ['prose', 'The data: section lists what the tool returned.\n'.repeat(200)],
    ['a YAML data key', 'data:\n  image/png: 3\nmetadata: {}\n'],
    ['a JS object with a data key', 'const x = { data: 1, metadata:image/png,x };'],
    ['code that builds a data URI', "const uri = 'data:image/png;base64,' + encoded;"],
    ['a regex for data URIs', String.raw`/^data:image\/png;base64,/.test(src)`],
    ['a scheme ending an identifier', 'xdata:image/png;base64,AAAA'],
    ['a long minified line', 'function(a,b){return a+b};'.repeat(400)],
    ['an empty string', ''],
  ])('keeps %s', (_case, text) => {
    expect(scrubInlineMedia(text)).toBe(text);
  });

  it('keeps ordinary text of any length unchanged (property)', () => {
    const word = fc.oneof(
      fc.stringMatching(/^[A-Za-z]{1,12}$/),
      fc.stringMatching(/^[0-9a-f]{7,64}$/),
      fc.uuid(),
      fc.stringMatching(/^[A-Za-z0-9_-]{20,200}$/),
    );
    const separator = fc.constantFrom(' ', '\n', ', ', '.', '(', ')', ': ', '"', '/', '=');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, separator), { maxLength: 400 }), (pieces) => {
        const text = pieces.map(([piece, after]) => piece + after).join('');

        expect(scrubInlineMedia(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('never lets a 4 KiB base64 blob through, whatever surrounds it (property)', () => {
    const around = fc.string({
      unit: fc.constantFrom(' ', '\n', '"', "'", ':', ',', '(', ')', 'x', '7', '.', '<', '>'),
      maxLength: 20,
    });
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 3072, maxLength: 6000 }),
        around,
        around,
        fc.boolean(),
        (data, before, after, asUri) => {
          // A base64 character next to the blob makes it part of a longer run.
          fc.pre(!/[A-Za-z0-9+/_-]$/.test(before) && !/^[A-Za-z0-9+/=_-]/.test(after));
          const encoded = base64(data);
          fc.pre(/[A-Z]/.test(encoded) && /[a-z]/.test(encoded) && /[0-9]/.test(encoded));
          const media = asUri ? `data:application/octet-stream;base64,${encoded}` : encoded;

          const scrubbed = scrubInlineMedia(`${before}${media}${after}`);

          expect(scrubbed).not.toContain(encoded.slice(0, 64));
          expect(scrubbed).toContain(after);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('scrubInlineMedia: adversarial input finishes', () => {
  it.each([
    ['data: floods', 'data:'.repeat(200_000)],
    ['URI head floods', 'data:image/png;base64,'.repeat(40_000)],
    ['parameter floods', `data:${';a=b'.repeat(100_000)}`],
    ['runs just short of the length', `${BLOB.slice(0, 4095)} `.repeat(300)],
    ['one long run', BLOB.repeat(256)],
  ])('handles %s', (_case, text) => {
    const started = performance.now();

    const scrubbed = scrubInlineMedia(text);

    expect(typeof scrubbed).toBe('string');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('backstopInlineMedia', () => {
  it('returns the value itself when there is nothing to replace', () => {
    const result = { content: 'hello', lines: [1, 2], nested: { path: 'src/a.ts' } };

    expect(backstopInlineMedia(result)).toBe(result);
  });

  it('replaces media at any depth in a copy, leaving the input as it was', () => {
    const result = { files: [{ name: 'a.png', preview: PNG }], note: 'ok' };

    const modelView = backstopInlineMedia(result) as typeof result;

    expect(JSON.stringify(modelView)).not.toContain('base64,');
    expect(modelView.note).toBe('ok');
    expect(modelView.files[0]?.name).toBe('a.png');
    expect(result.files[0]?.preview).toBe(PNG);
  });

  it.each([
    ['a Uint8Array', new Uint8Array(12), '12 bytes'],
    ['an ArrayBuffer', new ArrayBuffer(8), '8 bytes'],
    ['a DataView', new DataView(new ArrayBuffer(5)), '5 bytes'],
    [
      'a { kind: "base64" } object',
      { kind: 'base64', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
      'binary removed',
    ],
  ])('replaces %s with a marker', (_case, media, said) => {
    const modelView = backstopInlineMedia({ media }) as { media: unknown };

    expect(modelView.media).toEqual(expect.stringContaining(said));
    expect(modelView.media).toEqual(expect.stringContaining('media store'));
  });

  it('checks what toJSON hands to JSON', () => {
    const value = { toJSON: () => ({ image: PNG }) };

    expect(JSON.stringify(backstopInlineMedia({ value }))).not.toContain('base64,');
  });

  it('keeps an own __proto__ key as data and a plain object plain', () => {
    const result = JSON.parse(`{"__proto__": {"x": 1}, "blob": "${BLOB}"}`) as object;

    const modelView = backstopInlineMedia(result) as object;

    expect(Object.getPrototypeOf(modelView)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(modelView, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('leaves a cycle for bounding and replaces media in a shared sibling at each occurrence', () => {
    const node: Record<string, unknown> = { blob: BLOB };
    node['self'] = node;
    const shared = { blob: BLOB };

    const cyclic = backstopInlineMedia({ node }) as { node: { blob: string } };
    const siblings = backstopInlineMedia({ a: shared, b: [shared] });

    expect(cyclic.node.blob).toContain('[inline media removed');
    expect(JSON.stringify(siblings)).not.toContain(BLOB.slice(0, 64));
  });

  it('fails closed past its depth limit', () => {
    let deep: unknown = PNG;
    for (let level = 0; level < 300; level++) deep = { deep };

    expect(JSON.stringify(backstopInlineMedia(deep))).not.toContain('base64,');
  });
});
