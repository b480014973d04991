import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundForModel } from '../bound/bound-for-model.js';
import { projectEvents, projectToolInput, summarizeOutput } from './project-events.js';
import {
  legacyProjectToolInput,
  legacySummarizeOutput,
} from './test-support/legacy-project-events.js';

// The projections were made cheaper (JSON cut past the summary window, a collapse that replaces
// only what changes, no second media walk of a bounded result): a reader must see the same
// bytes as before, for every kind of result.

const WINDOW = 8192;
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const BLOB = 'Ab0+/Yz9'.repeat(1024);
const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\tkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
const SECRETS = [
  'password=hunter2hunter2',
  'Authorization: Bearer abcDEF123456789xyz',
  'api_key: "sk-abcdefghijklmnopqrstuvwxyz012345"',
  'https://user:pa55word@example.com/x',
  'AKIAIOSFODNN7EXAMPLE',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  JWT,
  PEM,
  'machine api.example.com login me password s3cr3t',
  'curl -u admin:topsecret https://x',
];

// A string whose window boundary (8192) falls inside a credential, a surrogate pair, a data:
// URI and a whitespace run, at each alignment around the cut. Padded with whitespace, which
// collapses, the cut lands within the 500 characters a summary keeps.
function around(boundary: number, inner: string, offset: number, pad: string): string {
  return `${pad.repeat(Math.max(0, boundary - offset))}${inner}${' tail'.repeat(50)}`;
}

function corpus(): readonly unknown[] {
  const lines = SECRETS.join('\n');
  const values: unknown[] = [
    '',
    'plain text',
    lines,
    `${lines}\n`.repeat(200),
    ' \t\n leading and trailing \u00a0\u2028\r\n',
    'a\u00a0\u00a0b\u3000c\ufeffd\r\ne\t\tf  g \u2029h',
    PNG,
    `see ${PNG} then ${SECRETS[0]}`,
    BLOB,
    `x ${BLOB} y`,
    'é😀'.repeat(5000),
    { content: lines, mimeType: 'text/plain', sizeBytes: 12, lastModified: '2026-01-01' },
    { content: `${'a'.repeat(1023)}\n`.repeat(1024), mimeType: 'text/plain' },
    { content: `${lines}\n`.repeat(3000), more: true, totalLines: 30_000 },
    { stdout: `${SECRETS.join('  \t ')}\n`.repeat(500), stderr: PEM, exitCode: 0 },
    { nested: { deeper: [{ token: 'tok_abcdefghijklmnop', list: [1, 2n === 2n, null] }] } },
    { image: new Uint8Array([1, 2, 3]), media: { kind: 'base64', data: BLOB } },
    { uri: PNG, blob: BLOB, text: 'keep' },
    { big: 12n },
    { deep: { deeper: { big: 1n } }, content: 'x'.repeat(20_000) },
    { date: new Date(0), map: new Map([[1, 2]]), set: new Set([1]) },
    { toJSON: () => ({ replaced: SECRETS[1] }) },
    [undefined, () => 1, Symbol('s'), Number.NaN, -0, Infinity, 'x'.repeat(9000)],
    Object.assign(Object.create(null) as object, { __proto__: 'data', value: SECRETS[0] }),
    { ['k'.repeat(9000)]: 'long key', after: SECRETS[2] },
    Array.from({ length: 2000 }, (_, index) => ({ name: `file-${index}.ts`, size: index })),
  ];
  for (const inner of [SECRETS[0], SECRETS[1], JWT, PEM, PNG, '😀😀', ' \t\t\n  ', BLOB]) {
    for (const offset of [0, 1, 2, 3, 5, 9, 17, 40]) {
      for (const pad of ['x', ' ', '\n']) {
        if (inner === undefined) continue;
        values.push(around(WINDOW, inner, offset, pad));
        // In JSON the opening brace, key and quote shift the boundary by 12 characters.
        values.push({ content: around(WINDOW - 12, inner, offset, pad), sizeBytes: 1 });
        values.push([around(WINDOW - 2, inner, offset, pad)]);
      }
    }
  }
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic['self'] = cyclic;
  values.push(cyclic, { wrapper: cyclic });
  return values;
}

// Every shape split, padded and ended by every kind of whitespace run: the summary skips both
// redaction passes when its collapsed window holds no shape, which is sound only if collapsing
// never hides one (a run longer than a shape allows, a value that is all whitespace at the end).
const SPACES = [
  ' ',
  '  ',
  '\t',
  '\t\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u2028',
  ' '.repeat(70),
  '\n\t \n',
];
const SPLIT_SHAPES = [
  ['password', '=', 'hunter2hunter2'],
  ['password', ':', '"a', 'b"'],
  ['password="', ''],
  ["token: '", "x'"],
  ['api_key', '=', 'null'],
  ['Authorization: Bearer', 'abcDEF123456789xyz'],
  ['Basic', 'dXNlcjpwYXNzd29yZA=='],
  ['machine', 'api.example.com', 'login', 'me', 'password', 's3cr3t'],
  ['machine', 'host', 'account', 'a', 'password', '"s3 cr3t"'],
  ['default', 'login', 'me', 'password', 'pw'],
  ['curl', '-u', 'admin:topsecret', 'https://x'],
  ['--user=admin:pw'],
  ['-----BEGIN', 'PRIVATE', 'KEY-----', 'MIIEvQ', '-----END', 'PRIVATE', 'KEY-----'],
  ['-----BEGIN  PRIVATE KEY-----', 'body'],
  ['https://user:pa55word@example.com/x'],
  ['password=[redacted]', 'x'],
] as const;

function whitespaceCorpus(): string[] {
  const texts: string[] = [];
  for (const parts of SPLIT_SHAPES) {
    for (const space of SPACES) {
      const joined = parts.join(space);
      texts.push(joined, `${space}${joined}${space}`, `x${space}${joined}`, `${joined}${space}"`);
    }
  }
  return texts;
}

const LIMITS = [undefined, { maxBytes: 4 * 1024 * 1024, maxLines: 1_000_000 }] as const;

describe('event projections, before and after they were made cheaper', () => {
  it('summarise every raw result to the same bytes', () => {
    for (const value of corpus()) {
      expect(summarizeOutput(value)).toBe(legacySummarizeOutput(value));
    }
  });

  it('summarise text whose shapes are split by any whitespace to the same bytes', () => {
    for (const text of whitespaceCorpus()) {
      expect(summarizeOutput(text)).toBe(legacySummarizeOutput(text));
      expect(summarizeOutput({ content: text })).toBe(legacySummarizeOutput({ content: text }));
    }
  });

  it('summarise random text from the shapes alphabet to the same bytes', () => {
    const fragment = fc.constantFrom(
      ...SPACES,
      ...SPLIT_SHAPES.flat(),
      'Bearer',
      'a',
      'Z',
      '7',
      '=',
      ':',
      '"',
      "'",
      '@',
      '/',
      '😀',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(summarizeOutput(text)).toBe(legacySummarizeOutput(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('summarise every bounded result of a dispatch to the same bytes', async () => {
    for (const value of corpus()) {
      for (const limits of LIMITS) {
        const { result } = await boundForModel(value, { limits });
        const events = projectEvents({
          toolId: 't',
          args: {},
          hiddenKeys: new Set(),
          modelResult: result,
          mediaChecked: true,
        });

        expect(events.result.outputSummary).toBe(legacySummarizeOutput(result));
      }
    }
  });

  it('project every argument object to the same value', () => {
    for (const value of corpus()) {
      const args = { value, path: 'src/index.ts', hidden: SECRETS[0] };
      const hidden = new Set(['hidden']);

      expect(JSON.stringify(projectToolInput(args, hidden))).toBe(
        JSON.stringify(legacyProjectToolInput(args, hidden)),
      );
    }
  });
});
