import fc from 'fast-check';

// Synthetic secrets in every shape the redactor knows (the shapes its own tests use), built at
// run time from random bodies so no scanner flags this file and no body is guessable.

const UPPER_DIGIT = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const ALNUM = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];

/** A secret in one shape: the text planted, and the part of it that must never be seen. */
export interface SecretShape {
  readonly text: string;
  /** The start of the secret's own characters (never the context the redactor keeps). */
  readonly body: string;
}

function run(units: readonly string[], length: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...units), minLength: length, maxLength: length });
}

function shape(
  units: readonly string[],
  length: number,
  build: (body: string) => string,
): fc.Arbitrary<SecretShape> {
  // The first 12 characters are what is looked for: an unredacted secret the summary's cut falls
  // inside still shows its start.
  return run(units, length).map((body) => ({ text: build(body), body: body.slice(0, 12) }));
}

/** Every secret shape the redactor recognises. */
export const secretShape: fc.Arbitrary<SecretShape> = fc.oneof(
  shape(UPPER_DIGIT, 16, (body) => `AKIA${body}`),
  shape(ALNUM, 36, (body) => `ghp_${body}`),
  shape(ALNUM, 30, (body) => `github_pat_${body}`),
  shape(ALNUM, 24, (body) => `glpat-${body}`),
  shape(ALNUM, 24, (body) => `xoxb-${body}`),
  shape(ALNUM, 32, (body) => `sk-${body}`),
  shape(ALNUM, 24, (body) => `sk_live_${body}`),
  shape(ALNUM, 35, (body) => `AIza${body}`),
  shape(ALNUM, 34, (body) => `hf_${body}`),
  shape(ALNUM, 36, (body) => `npm_${body}`),
  shape(ALNUM, 24, (body) => `whsec_${body}`),
  shape(ALNUM, 56, (body) => `pypi-${body}`),
  shape(ALNUM, 24, (body) => `eyJ${body}.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N`),
  shape(
    ALNUM,
    40,
    (body) => `-----BEGIN RSA PRIVATE KEY-----\nMIIE${body}\n-----END RSA PRIVATE KEY-----`,
  ),
  shape(ALNUM, 20, (body) => `password=${body}`),
  shape(ALNUM, 20, (body) => `api_key: "${body}"`),
  shape(ALNUM, 20, (body) => `SECRET_KEY='${body}'`),
  shape(ALNUM, 20, (body) => `Authorization: Bearer 9${body}`),
  shape(ALNUM, 20, (body) => `https://user:${body}@example.com/x`),
  shape(ALNUM, 20, (body) => `machine api.example.com login me password ${body}`),
  shape(ALNUM, 20, (body) => `curl -u admin:${body} https://example.com`),
  shape(ALNUM, 24, (body) => `https://hooks.slack.com/services/${body}`),
);

// What may stand right before a secret: nothing, a line start, every JSON escape both as the
// character a serialiser escapes and as the escape's own spelling in text (`\n` as two
// characters), other controls and separators. A letter before each, so an escape's letter
// would glue to the secret if the detector read the spelling.
export const before = fc.constantFrom(
  '',
  '\n',
  'x\n',
  'x\r\n',
  'x\t',
  'x\r',
  'x\b',
  'x\f',
  'x"',
  'x\\',
  'x\u0000',
  'x\u0001',
  'x\u001f',
  'x\u007f',
  'x\u2028',
  'x\u00a0',
  'x ',
  'x=',
  'x,',
  'x\\n',
  'x\\t',
  'x\\r',
  'x\\"',
  'x\\\\',
  'x\\u000a',
  'x\\u0009',
  'x\\u001b',
  '\\n',
);

/** What may follow a secret. */
export const after = fc.constantFrom('', '\n', '"', ' tail', '\\n', '\t', ',', '\\"');

/** Where in a value the secret sits. */
export type Placement =
  'string' | 'leaf' | 'key' | 'nested-leaf' | 'nested-key' | 'summary-cut' | 'window-cut';

export const placement = fc.constantFrom<Placement>(
  'string',
  'leaf',
  'key',
  'nested-leaf',
  'nested-key',
  'summary-cut',
  'window-cut',
);

/** One planted secret: its shape, its surroundings and where it sits. */
export interface PlantedSecret {
  readonly shape: SecretShape;
  readonly text: string;
  readonly placement: Placement;
  /** Padding for the cut placements: the secret then straddles the summary's cut or window. */
  readonly pad: number;
}

export const plantedSecret: fc.Arbitrary<PlantedSecret> = fc
  .record({
    shape: secretShape,
    before,
    after,
    placement,
    pad: fc.integer({ min: -24, max: 8 }),
  })
  .map(({ shape: planted, before: lead, after: tail, placement: where, pad }) => ({
    shape: planted,
    text: `${lead}${planted.text}${tail}`,
    placement: where,
    pad,
  }));

// The summary keeps 500 characters, read from an 8192-character window of the JSON.
const SUMMARY_CUT = 500;
const WINDOW_CUT = 8192;

/** The planted secret as a tool's structured data (an argument or a result). */
export function plantedValue(planted: PlantedSecret): unknown {
  const { text } = planted;
  switch (planted.placement) {
    case 'string':
      return text;
    case 'leaf':
      return { note: text, size: 1 };
    case 'key':
      return { [text]: 'value' };
    case 'nested-leaf':
      return { items: [{ name: 'a', lines: ['first', text] }] };
    case 'nested-key':
      return { items: [{ [text]: true }] };
    case 'summary-cut':
      // `{"content":"` is 12 characters: the secret starts just before or at the cut. The pad
      // ends in a blank: a secret glued to a word is a longer word, not a secret.
      return { content: `${'x'.repeat(SUMMARY_CUT - 13 + planted.pad)} ${text}` };
    case 'window-cut':
      // Whitespace collapses, so what the window's cut falls inside reaches the summary.
      return { content: `${' '.repeat(WINDOW_CUT - 12 + planted.pad)}${text}` };
  }
}

/** The planted secret as a file's text (what `read_file` reads). */
export function plantedFileText(planted: PlantedSecret): string {
  const value = plantedValue(planted);
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
