import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mayHoldSecretShape, redactSecretShapedText } from './redact-secret-shaped-text.js';
import { legacyRedactSecretShapedText } from './test-support/legacy-redact-secret-shaped-text.js';

// The bearer branch's length check was respelled (eight classes instead of a counted loop) to
// make a `Bearer Bearer` flood cheap: every text must redact to the same bytes as before.
// `mayHoldSecretShape` lets the event summary skip both passes: it may never say "none" for a
// text the redaction changes.

interface SecretCase {
  readonly text: string;
}

const families = (
  JSON.parse(
    readFileSync(new URL('../../../../test/corpus/secrets.json', import.meta.url), 'utf8'),
  ) as SecretCase[]
).map((entry) => entry.text);

const fake = (prefix: string, body: string): string => `${prefix}${body}`;

// Positive and near-miss cases of the bearer/basic branch: each side of the 8-character
// minimum, prose, a letter run with and without a later digit or capital, each separator.
const BEARER = [
  'Bearer abcDEF12',
  'Bearer abcDEF1',
  'Bearer abcdefgh',
  'Bearer abcdefgH',
  'Bearer abcdefghijklmnop1',
  'Bearer Abcdefgh',
  'Bearer 12345678',
  'Bearer .bcdefgh',
  'Bearer of bad news',
  'bearer\txyz123secret',
  'Bearer \t \t abc123DEF',
  'Bearer      abc123DEF',
  'Bearer\nabc123DEF',
  'xBearer abc123DEF',
  '1Bearer abc123DEF',
  'Basic dXNlcjpwYXNz',
  'Basic authentication',
  'basic Zm9vOmJhcg==',
  `Bearer ${'a'.repeat(5000)}Z`,
  `Bearer ${'A'.repeat(5000)}`,
  `Bearer ${'a'.repeat(4095)}1`,
  `Bearer ${'a'.repeat(4096)}1`,
  'Bearer Bearer abc123DEF',
  'Bearer sk-abcdefghijklmnopqrstuvwxyz',
  'Bearer abc.sk-abcdefghijklmnopqrstuvwxyz',
  'password=Bearer abcdefgh123',
];

const OTHERS = [
  'password=hunter2hunter2',
  'password = "unterminated',
  'password="\t',
  "password: 'a b\tc'",
  'password=[redacted]',
  'token: ${TOKEN}',
  'api_key=null',
  'api_key=nullx',
  'secret_key_base=abc',
  'https://user:pa55word@example.com/x',
  'AKIAIOSFODNN7EXAMPLE',
  fake('ghp_', 'abcdefghijklmnopqrstuvwxyz0123456789'),
  fake('sk-', 'abcdefghijklmnopqrstuvwxyz012345'),
  fake('xoxb-', '1234567890-abc'),
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----',
  '-----BEGIN PRIVATE KEY-----\nno end',
  'machine api.example.com login me password s3cr3t',
  'machine\thost\n  login me\n  password "s3 cr3t"',
  'curl -u admin:topsecret https://x',
  'https://hooks.slack.com/services/T000/B000/XXXXXXXX',
];

const FLOODS = [
  'sk-',
  'a',
  'Bearer ',
  'Basic ',
  'bearer\t',
  '-----BEGIN PRIVATE KEY-----\n',
  'eyJ',
  '://a:b',
  'passwordtoken',
  'sk-sk-aaaaaaaa Bearer Bearer eyJeyJ ://x:y passwordtoken ',
  'password="',
];

function corpus(): string[] {
  const cases = [...families, ...BEARER, ...OTHERS];
  const texts = [...cases, cases.join('\n'), cases.join('\r\n'), cases.join(' \u00a0\u2028 ')];
  for (const unit of FLOODS) {
    const flood = unit.repeat(Math.ceil(4096 / unit.length));
    texts.push(flood);
    for (const inner of cases) texts.push(`${flood}${inner}${flood}`, `${inner}${flood}`);
  }
  for (const inner of [...BEARER, ...OTHERS]) {
    texts.push(`é😀 ${inner} 日本`, `${'x'.repeat(100_000)} ${inner}\r\n${'y '.repeat(50_000)}`);
  }
  return texts;
}

// Random text from the characters the shapes are made of: whitespace of every kind, the
// separators, quotes, the keyword and prefix letters, digits and capitals.
const fragment = fc.constantFrom(
  'Bearer ',
  'bearer',
  'Basic ',
  'asic',
  'earer',
  'B',
  'b',
  'password',
  'token',
  'secret_key',
  'machine ',
  ' login ',
  ' password ',
  'host.example.com',
  '://',
  '-u ',
  '--user=',
  'sk-',
  'ghp_',
  'AKIA',
  'eyJ',
  'null',
  '[redacted]',
  '-----BEGIN PRIVATE KEY-----',
  '-----END PRIVATE KEY-----',
  'a',
  'Z',
  '7',
  '.',
  '+',
  '/',
  '=',
  ':',
  '"',
  "'",
  '@',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u2028',
  '😀',
);
const randomText = fc.array(fragment, { maxLength: 60 }).map((parts) => parts.join(''));

describe('redactSecretShapedText, before and after the bearer length check was respelled', () => {
  it('redacts every corpus text to the same bytes', () => {
    for (const text of corpus()) {
      expect(redactSecretShapedText(text)).toBe(legacyRedactSecretShapedText(text));
    }
  });

  it('redacts random text from the shapes alphabet to the same bytes', () => {
    fc.assert(
      fc.property(randomText, (text) => {
        expect(redactSecretShapedText(text)).toBe(legacyRedactSecretShapedText(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('mayHoldSecretShape', () => {
  it('says "none" only for a text the redaction leaves as it is', () => {
    for (const text of corpus()) {
      if (!mayHoldSecretShape(text)) expect(redactSecretShapedText(text)).toBe(text);
    }
    fc.assert(
      fc.property(randomText, (text) => {
        if (!mayHoldSecretShape(text)) expect(redactSecretShapedText(text)).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });

  // Past the short-text screen a literal anchor screen decides first: a text it rules out must
  // hold no shape at all. Every vendor prefix and separator, padded past that screen.
  it('says "none" for a long text only when the full scan finds no shape', () => {
    const vendor = fc.constantFrom(
      'AKIAIOSFODNN7EXAMPLE',
      'ASIA',
      'ABIA',
      'ACCA',
      'ghs_',
      'github_pat_',
      'glpat-',
      'glagent-',
      'xoxb-',
      'xapp-1-',
      'sk_live_',
      'rk_test_',
      'whsec_',
      'AIza',
      'hf_',
      'npm_',
      'pypi-',
      'https://hooks.slack.com/services/',
      // The shapes added after gitleaks' rules, the sparse second scan's among them.
      'A3TX',
      'AGE-SECRET-KEY-1',
      'AKCp',
      'A3-',
      'ATATT3',
      'API-',
      'CLOJARS_',
      'EZAK',
      'EAAM',
      'EAAA',
      'FLWSECK_TEST-',
      'GR1348941',
      'HRKU-AA',
      'NRAK-',
      'PMAK-',
      'SK0a',
      'SG.',
      'abc8Q~',
      'glffct-',
      'glc_',
      'glsa_',
      'xkeysib-',
      'p8e-',
      'pscale_tkn_',
      'pul-',
      'pat.',
      'sk_prod_',
      'sha256~',
      'sntryu_',
      'sm_pat_',
      'shpat_',
      'sq0atp-',
      'sgp_',
      'rubygems_',
      'hvs.',
      'ntn_',
      'eyJrIjoi',
      '.atlasv1.',
      'api_org_',
      'dapi',
      'dop_v1_',
      'dp.pt.',
      'dt0c01.',
      'fo1_',
      'fm2_',
      'ico-',
      'lin_api_',
      'ops_eyJ',
      'tk-us-',
      'tfp_',
      '_gitlab_session=',
      '<add key="Password" value="',
      '.webhook.office.com/webhookb2/',
      'PassPhrase',
      'Session-Key',
      'API_KEY',
      'credentials',
      'default',
      'abcdefghij0123456789ABCDEFGHIJ_-',
    );
    const longText = fc
      .tuple(fc.array(fc.oneof(fragment, vendor), { maxLength: 40 }), fc.boolean())
      .map(([parts, padFirst]) => {
        const text = parts.join('');
        return padFirst ? `${'x '.repeat(70)}${text}` : `${text}${' y'.repeat(70)}`;
      });
    fc.assert(
      fc.property(longText, (text) => {
        if (!mayHoldSecretShape(text)) expect(redactSecretShapedText(text)).toBe(text);
      }),
      { numRuns: 5000 },
    );
    // One of each family with nothing else an anchor could catch.
    for (const inner of [
      'curl --user admin:topsecret x',
      'curl -u admin:topsecret x',
      'machine example.com login me password s3cr3t',
      'Basic dXNlcjpwYXNzd29yZA==',
      'token = abcdefgh',
      'hf_abcdefghijklmnopqrstuvwxyz0123456789',
    ]) {
      const text = `${'x '.repeat(70)}${inner}`;
      expect(redactSecretShapedText(text)).not.toBe(text);
      expect(mayHoldSecretShape(text)).toBe(true);
    }
  });

  // The keyword screen reads with the `i` flag and the vendor one without it: a keyword in any
  // mix of cases, past the short-text screen, is still caught by the first, and a vendor prefix
  // behind a keyword-free text by the second.
  it('passes a keyword in any case and a vendor prefix after keyword-free text', () => {
    const keyword = fc
      .constantFrom('password', 'secret_key', 'token', 'api_key', 'access_key', 'auth_key')
      .chain((word) =>
        fc
          .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
          .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')),
      );
    fc.assert(
      fc.property(keyword, fc.constantFrom('=', ': ', ' = '), (word, separator) => {
        const text = `${'x '.repeat(70)}${word}${separator}hunter2hunter2`;
        expect(redactSecretShapedText(text)).not.toBe(text);
        expect(mayHoldSecretShape(text)).toBe(true);
      }),
      { numRuns: 500 },
    );
    for (const token of [
      'AKIAIOSFODNN7EXAMPLE',
      `ghp_${'a1B2'.repeat(9)}`,
      `glpat-${'a1B2'.repeat(6)}`,
      `xoxb-${'1234567890'}`,
      `sk-${'a1B2'.repeat(6)}`,
      `AIza${'a1B2'.repeat(9)}`,
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ]) {
      const text = `${'the quick brown fox '.repeat(20)}${token}`;
      expect(redactSecretShapedText(text)).not.toBe(text);
      expect(mayHoldSecretShape(text)).toBe(true);
    }
  });

  it('finds a shape in each family, and none in ordinary text', () => {
    for (const text of [...BEARER, ...OTHERS]) {
      // A match whose replacement gives the same text back still counts as a shape.
      if (redactSecretShapedText(text) !== text || text.includes('[redacted]')) {
        expect(mayHoldSecretShape(text)).toBe(true);
      }
    }
    expect(mayHoldSecretShape('password=[redacted]')).toBe(true);
    for (const text of ['', 'plain text', 'Bearer of bad news', 'api_key=null', 'export a = 42;']) {
      expect(mayHoldSecretShape(text)).toBe(false);
    }
  });
});
