import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecretShapedText } from './redact-secret-shaped-text.js';

interface SecretCase {
  readonly id: string;
  readonly text: string;
  readonly expect: 'redact' | 'keep';
  readonly kind: string;
  readonly secret?: readonly string[];
}

const corpus = JSON.parse(
  readFileSync(new URL('../../../../test/corpus/secrets.json', import.meta.url), 'utf8'),
) as SecretCase[];

// Shape-valid fake values, assembled so this file itself does not look like a leak.
const fake = (prefix: string, body: string): string => `${prefix}${body}`;
const b36 = 'FAKE0123456789abcdefghijklmnopqrstuv';

describe('redactSecretShapedText: every family', () => {
  it.each<[string, string, string]>([
    [
      'a PEM private key',
      `-----BEGIN RSA PRIVATE KEY-----\nMIIEsecretbody\nmoresecret==\n-----END RSA PRIVATE KEY-----`,
      'secretbody',
    ],
    [
      'an OpenSSH private key',
      `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXksecret\n-----END OPENSSH PRIVATE KEY-----`,
      'b3BlbnNzaC1rZXksecret',
    ],
    [
      'an unterminated PEM block',
      `key:\n-----BEGIN PRIVATE KEY-----\nMIIEunterminatedsecret`,
      'unterminatedsecret',
    ],
    ['a bearer token', 'Authorization: Bearer abcDEF123.secret-token', 'abcDEF123.secret-token'],
    ['a lowercase bearer scheme', 'authorization: bearer xyz123secret', 'xyz123secret'],
    ['basic credentials', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
    ['a password assignment', 'password=hunter2secret', 'hunter2secret'],
    ['a quoted JSON secret', '{"client_secret": "s3cr3t value with spaces"}', 's3cr3t value'],
    ['a YAML token', 'auth_token: abc123secret', 'abc123secret'],
    ['an env API key', 'MY_SERVICE_API_KEY=abcdef0123secret', 'abcdef0123secret'],
    ['a go-style assignment', 'passphrase := correcthorsebattery', 'correcthorsebattery'],
    ['an AWS access key id', 'id AKIAABCDEFGHIJKLMNOP here', 'AKIAABCDEFGHIJKLMNOP'],
    ['a curl -u password', 'curl -u admin:hunter2pw https://example.com', 'hunter2pw'],
    ['a --user= password', 'curl --user=deploy:s3cr3t-pw https://x', 's3cr3t-pw'],
    ['a GitHub PAT', `token ${fake('ghp_', b36)}`, fake('ghp_', b36)],
    [
      'a fine-grained GitHub PAT',
      `x ${fake('github_pat_', '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz')}`,
      '11ABCDEFG0123456789_abc',
    ],
    ['a GitLab PAT', `x ${fake('glpat-', 'abcdefghij0123456789')}`, 'abcdefghij0123456789'],
    [
      'a Slack bot token',
      `x ${fake('xoxb-', '123456789012-abcdefABCDEF')}`,
      '123456789012-abcdefABCDEF',
    ],
    [
      'an OpenAI key',
      `x ${fake('sk-', 'proj-abcdefghijklmnopqrstuvwx')}`,
      'abcdefghijklmnopqrstuvwx',
    ],
    ['a Stripe live key', `x ${fake('sk_live_', '0123456789abcdefABCD')}`, '0123456789abcdefABCD'],
    [
      'a Google API key',
      `key ${fake('AIza', 'SyA0123456789abcdefghijklmnopqrstuv')}`,
      'SyA0123456789abcdefghijklmnopqrstuv',
    ],
    [
      'a Hugging Face token',
      `x ${fake('hf_', 'abcdefghijklmnopqrstuvwxyzABCDEFGH')}`,
      'abcdefghijklmnopqrstuvwxyzABCDEFGH',
    ],
    [
      'an npm token',
      `x ${fake('npm_', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ')}`,
      'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ',
    ],
    [
      'a JWT',
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U done',
      'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ],
    ['a URL userinfo password', 'postgres://app:Sup3rS3cret@db.internal:5432/app', 'Sup3rS3cret'],
    [
      'a Django SECRET_KEY with spaces around =',
      "SECRET_KEY = 'django-insecure-)k%v5y#8w+3@x!b2q'",
      'django-insecure',
    ],
    ['a camelCase secretKey', 'secretKey: "Zx81-not-public"', 'Zx81-not-public'],
    ['a Rails secret_key_base', 'secret_key_base = 7d3f1a2b9c8e', '7d3f1a2b9c8e'],
    ['a .netrc line', 'machine h login u password s3cret', 's3cret'],
    [
      'a multi-line .netrc entry',
      'machine api.example.com\n  login deploy\n  password s3cr3t-pw\n',
      's3cr3t-pw',
    ],
    [
      'a .netrc line with port and account tokens',
      'machine ftp.example.com port 21 login u account acct password "two words"',
      'two words',
    ],
    [
      'a .netrc line without a login after a dotted host',
      'machine api.example.com password s3cr3t-pw',
      's3cr3t-pw',
    ],
    ['a .netrc default entry', 'default login anonymous password guest-pw@site', 'guest-pw'],
    [
      'a Slack webhook path',
      'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX',
      'T000/B000/XXXXXXXXXXXX',
    ],
  ])('redacts %s', (_case, text, secret) => {
    const redacted = redactSecretShapedText(text);

    expect(redacted).not.toContain(secret);
    expect(redacted).toContain('[redacted]');
  });

  it('keeps the context around a redaction', () => {
    expect(redactSecretShapedText('postgres://app:Sup3rS3cret@db:5432/x')).toBe(
      'postgres://app:[redacted]@db:5432/x',
    );
    expect(redactSecretShapedText('Authorization: Bearer abc123XYZsecret')).toBe(
      'Authorization: Bearer [redacted]',
    );
    expect(redactSecretShapedText('"password": "hunter22"')).toBe('"password": "[redacted]"');
    expect(
      redactSecretShapedText('-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\nafter'),
    ).toBe('-----BEGIN PRIVATE KEY-----\n[redacted]\n-----END PRIVATE KEY-----\nafter');
  });

  it('is idempotent', () => {
    const once = redactSecretShapedText('password=hunter22 and Bearer abc123XYZsecret');

    expect(redactSecretShapedText(once)).toBe(once);
  });
});

describe('redactSecretShapedText: near-misses survive', () => {
  it.each([
    ['a git SHA', 'commit 3f786850e387550fdab836ed7e6dc881de23001b'],
    ['a UUID', 'id 123e4567-e89b-12d3-a456-426614174000'],
    ['prose about passwords', 'The password field must be at least 12 characters.'],
    ['prose about bearer auth', 'Bearer authentication is described in RFC 6750.'],
    ['basic prose', 'Basic Authentication and basic usage'],
    ['a variable reference', 'password=$DB_PASSWORD and token: ${TOKEN}'],
    ['a placeholder', 'api_key=<your-key-here>'],
    ['a null value', 'token: null'],
    ['a word containing sk-', 'the task-force met at desk-side'],
    ['a short sk- word', 'pip install sk-learn'],
    ['a word ending in sk before _test_', 'run task_test_integration_suite now'],
    ['a word ending in sk- before a long run', 'the task-force-operations-planning-group'],
    [
      'a public certificate header',
      '-----BEGIN CERTIFICATE-----\nMIIBpublic\n-----END CERTIFICATE-----',
    ],
    ['a URL without a password', 'https://user@example.com/path and https://example.com:8443/'],
    ['a max_tokens setting', 'max_tokens 1000'],
    ['a push upstream flag', 'git push -u origin main'],
    ['a user flag without a password', 'curl -u admin https://example.com'],
    ['an empty string', ''],
    ['a plain assignment', 'x = 1'],
    ['password in prose after a login', 'Use your login and password to sign in.'],
    ['machine in prose before a password', 'The machine learning password reset flow'],
    [
      'a netrc-like sentence whose login ends a clause',
      'the machine logs login attempts; password resets are audited',
    ],
    ['a netrc entry whose password is a reference', 'machine h login u password $NETRC_PW'],
    ['a secret key file path placeholder', 'SECRET_KEY=${DJANGO_SECRET_KEY}'],
  ])('keeps %s', (_case, text) => {
    expect(redactSecretShapedText(text)).toBe(text);
  });
});

describe('redactSecretShapedText: the shared corpus', () => {
  it.each(corpus.map((entry) => [entry.id, entry.kind, entry] as const))(
    '%s (%s)',
    (_id, _kind, entry) => {
      const redacted = redactSecretShapedText(entry.text);

      if (entry.expect === 'keep') expect(redacted).toBe(entry.text);
      else for (const secret of entry.secret ?? []) expect(redacted).not.toContain(secret);
    },
  );
});

describe('redactSecretShapedText: adversarial input finishes and stays redacted', () => {
  it.each([
    ['sk- runs', 'sk-'.repeat(100_000)],
    ['one long run', 'a'.repeat(300_000)],
    ['bearer floods', 'Bearer '.repeat(50_000)],
    ['headers without END', '-----BEGIN PRIVATE KEY-----\n'.repeat(20_000)],
    ['JWT-looking runs', 'eyJ'.repeat(100_000)],
    ['unterminated quoted values', 'password="'.repeat(30_000)],
    ['userinfo-like runs', '://a:b'.repeat(50_000)],
    ['netrc entries without a password', 'machine h login u '.repeat(30_000)],
    ['netrc machine floods', 'machine '.repeat(50_000)],
    ['netrc dotted-host floods', `machine ${'a.'.repeat(100_000)}`],
    ['netrc dotted hosts without a password', 'machine a.b.c port 1 '.repeat(20_000)],
    ['vendor prefixes after separators', '-glpat-_github_pat_-xoxb-_AKIA'.repeat(20_000)],
    ['a separator run with vendor prefixes', `${'-_'.repeat(50_000)}ghp_`.repeat(2)],
  ])('handles %s', (_case, text) => {
    const redacted = redactSecretShapedText(text);

    expect(typeof redacted).toBe('string');
  });
});

describe('redactSecretShapedText: a token in any surrounding text', () => {
  const tokens = [
    `AKIA${'Z'.repeat(16)}`,
    `ghp_${'a1'.repeat(18)}`,
    `sk-${'proj_Ab1'.repeat(4)}`,
    `xoxb-${'12345-abc'.repeat(3)}`,
    `AIza${'Sy0_-'.repeat(7)}`,
    `npm_${'Ab1'.repeat(12)}`,
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N',
  ];

  it('never survives, whatever stands before and after it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...tokens),
        fc.string({
          unit: fc.constantFrom(' ', '\n', '"', "'", '=', ':', ',', '(', 'x', '/', '@'),
          maxLength: 12,
        }),
        fc.string({
          unit: fc.constantFrom(' ', '\n', '"', "'", ',', ')', ';', '&', '.'),
          maxLength: 12,
        }),
        (token, before, after) => {
          // A letter, digit, `_` or `-` right before the token would make it part of a longer word.
          fc.pre(!/[A-Za-z0-9_-]$/.test(before));

          expect(redactSecretShapedText(`${before}${token}${after}`)).not.toContain(token);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('redactSecretShapedText: a vendor token glued into a name', () => {
  // Prefixes no word ends in: a `-` or `_` before them does not make them part of a word.
  const tokens = [
    `AKIA${'Z'.repeat(16)}`,
    `ghp_${'a1'.repeat(18)}`,
    `github_pat_${'A1b2_'.repeat(5)}`,
    `glpat-${'x1Y2z'.repeat(4)}`,
    `xoxb-${'12345-abc'.repeat(3)}`,
    `whsec_${'Ab1'.repeat(8)}`,
    `AIza${'Sy0_-'.repeat(7)}`,
  ];

  it('is redacted after a - or _ as after a space', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...tokens),
        fc.stringMatching(/^[a-z0-9]{0,8}$/),
        fc.constantFrom('-', '_'),
        (token, word, separator) => {
          const text = `${word}${separator}${token}`;

          expect(redactSecretShapedText(text)).toBe(`${word}${separator}${REDACTED}`);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('redactSecretShapedText: a short text is screened before the full scan', () => {
  // The screen lets through only texts with whitespace, `:` or `=`, or a 15-character token run:
  // the shortest shape of each family, alone and in a short text, still reaches the full scan.
  it.each([
    ['the shortest Slack token', `xoxb-${'1'.repeat(10)}`],
    ['the shortest app-level Slack token', `xapp-1-${'a'.repeat(10)}`],
    ['the shortest Stripe key', `rk_live_${'A'.repeat(10)}`],
    ['an AWS key id', `AKIA${'Q'.repeat(16)}`],
    ['the shortest OpenAI key', `sk-${'b'.repeat(20)}`],
    ['the shortest JWT', `eyJ${'a'.repeat(8)}.eyJ${'b'.repeat(8)}.${'c'.repeat(8)}`],
    ['a key=value', 'token=abc'],
    ['a key: value', 'secret:abc'],
    ['a userinfo password', 'h://u:p@x'],
    ['a -u password', '-u a:b'],
    ['a bearer credential', 'Bearer abc123DEF'],
  ])('redacts %s', (_case, secret) => {
    for (const text of [secret, `/${secret}/`, `(${secret})`]) {
      expect(redactSecretShapedText(text)).toContain('[redacted]');
    }
  });

  it.each([
    ['a path', 'packages/core/src/index.ts'],
    ['an id', 'call-1'],
    ['a hash', '3f786850e387550fdab836ed7e6dc881de23001b'],
  ])('keeps %s', (_case, text) => {
    expect(redactSecretShapedText(text)).toBe(text);
  });
});
