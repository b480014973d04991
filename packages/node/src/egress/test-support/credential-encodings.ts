/** A secret with the characters escapers treat specially: `/`, `+`, `=`, `_`, `-`, `.`. */
export const HOSTILE_SECRET = 'sk-live/Ab9+xQ=7_z.Kp2-Wm';

const hex = (code: number, upper: boolean): string => {
  const digits = code.toString(16).padStart(2, '0');
  return upper ? digits.toUpperCase() : digits;
};

const eachChar = (secret: string, encode: (code: number, index: number) => string): string =>
  [...secret].map((char, index) => encode(char.charCodeAt(0), index)).join('');

const NAMED: Readonly<Record<string, string>> = {
  '/': '&sol;',
  '+': '&plus;',
  '=': '&equals;',
  _: '&lowbar;',
  '.': '&period;',
};

/**
 * The ways a hostile echo endpoint can hand a secret back so a raw search misses it while a
 * model (or web_search's `JSON.parse`) reads it straight back: name → encoder.
 */
export const CREDENTIAL_ENCODINGS: ReadonlyArray<readonly [string, (secret: string) => string]> = [
  ['JSON \\/ escapes', (secret) => secret.replaceAll('/', '\\/')],
  [
    'JSON \\u00XX for every character (mixed case)',
    (secret) => eachChar(secret, (code, index) => `\\u00${hex(code, index % 2 === 0)}`),
  ],
  [
    'JSON \\u00XX for every other character',
    (secret) =>
      eachChar(secret, (code, index) =>
        index % 2 === 0 ? `\\u00${hex(code, false)}` : String.fromCharCode(code),
      ),
  ],
  ['JS \\xXX escapes', (secret) => eachChar(secret, (code) => `\\x${hex(code, true)}`)],
  [
    'percent-encoding, mixed case',
    (secret) => eachChar(secret, (code, index) => `%${hex(code, index % 3 === 0)}`),
  ],
  ['encodeURIComponent', (secret) => encodeURIComponent(secret)],
  ['hex character references', (secret) => eachChar(secret, (code) => `&#x${hex(code, true)};`)],
  [
    'decimal references with zeros and no semicolon',
    (secret) => eachChar(secret, (code, index) => `&#000${code}${index % 2 === 0 ? ';' : ''}`),
  ],
  [
    'named references for the punctuation',
    (secret) => [...secret].map((char) => NAMED[char] ?? char).join(''),
  ],
  ['base64, padded', (secret) => Buffer.from(secret).toString('base64')],
  ['base64, unpadded', (secret) => Buffer.from(secret).toString('base64').replace(/=+$/, '')],
  ['base64url', (secret) => Buffer.from(secret).toString('base64url')],
  ['base64 one byte into a blob', (secret) => Buffer.from(`x${secret}`).toString('base64')],
  ['base64 of the whole header', (secret) => Buffer.from(`Bearer ${secret}`).toString('base64')],
  [
    'base64url two bytes into a blob',
    (secret) => Buffer.from(`xy${secret}!`).toString('base64url'),
  ],
  [
    'MIME base64 wrapped at 8 columns',
    (secret) =>
      (
        Buffer.from(`z${secret}`)
          .toString('base64')
          .match(/.{1,8}/g) ?? []
      ).join('\r\n'),
  ],
  [
    'JSON-escaped base64',
    (secret) => JSON.stringify(Buffer.from(secret).toString('base64')).replaceAll('/', '\\/'),
  ],
  [
    'percent-encoding inside a JSON string',
    (secret) => eachChar(secret, (code) => `\\u0025${hex(code, false)}`),
  ],
  ['double percent-encoding', (secret) => encodeURIComponent(encodeURIComponent(secret))],
];
