import { redactPrivateKeyBlocks } from './redact-private-key-blocks.js';
import { REDACTED } from './redacted-marker.js';
import { mayHoldShortSecret, SCREENED_UP_TO } from './short-secret-screen.js';
import {
  BOUNDARY,
  mayHoldSparseToken,
  redactSparseTokens,
  VENDOR_ANCHOR,
  VENDOR_TOKEN_BRANCHES,
} from './vendor-token-shapes.js';

export { REDACTED };

/**
 * Replaces every secret-shaped span (PEM private keys, bearer/basic credentials, `key=value`
 * secrets, vendor tokens, JWTs, URL userinfo passwords) with `[redacted]`. Shape-based and
 * deliberately lossy: a display and log projection, never a guarantee that arbitrary sensitive
 * text is caught. Linear in the input: every pattern starts at a literal anchor and has bounded
 * quantifiers with no required suffix after an open-ended run, so no input makes it backtrack.
 */
export function redactSecretShapedText(text: string): string {
  if (text.length <= SCREENED_UP_TO && !mayHoldShortSecret(text)) return text;
  if (text.includes('-----BEGIN '))
    return redactSparseTokens(redactPrivateKeyBlocks(text).replace(SECRET_SHAPES, REPLACEMENT));
  return redactSparseTokens(holdsAnchor(text) ? text.replace(SECRET_SHAPES, REPLACEMENT) : text);
}

/**
 * False only when `redactSecretShapedText` would replace nothing in `text`: no shape matches
 * anywhere. A text with a `-----BEGIN ` header counts as holding one without being parsed.
 */
export function mayHoldSecretShape(text: string): boolean {
  if (text.length <= SCREENED_UP_TO && !mayHoldShortSecret(text)) return false;
  return (
    text.includes('-----BEGIN ') ||
    (holdsAnchor(text) && ANY_SECRET_SHAPE.test(text)) ||
    mayHoldSparseToken(text)
  );
}

// Case-insensitive keyword spelled as classes, so the vendor token shapes in the same single
// pass stay case-sensitive (`AKIA`, not `akia`) without a second scan of the text.
function anyCase(word: string): string {
  return [...word]
    .map((char) => {
      const lower = char.toLowerCase();
      const upper = char.toUpperCase();
      return lower === upper ? char.replace(/[-_]/, '[-_]?') : `[${lower}${upper}]`;
    })
    .join('');
}

// Factored where keywords share a stem (`pass…`, `secret…`, `credential…`), so a flood of
// keywords is not re-read once per spelling. Alternation order cannot change a match: a keyword
// must be followed by a quote, a blank or `:`/`=`, none of which continues a longer one.
const SECRET_KEYWORDS = [
  `${anyCase('pass')}(?:${anyCase('word')}|${anyCase('wd')}|${anyCase('phrase')})`,
  // `SECRET_KEY` (Django), `secret_key_base` (Rails): the keyword alone stops before its suffix.
  `${anyCase('secret')}(?:[-_]?${anyCase('key')}(?:[-_]?${anyCase('base')})?)?`,
  anyCase('token'),
  anyCase('api_key'),
  anyCase('access_key'),
  anyCase('private_key'),
  `${anyCase('credential')}[sS]?`,
  anyCase('auth_key'),
  anyCase('session_key'),
];

// Values that are references or blanks, not secrets (`${DB_PASSWORD}`, `$TOKEN`, `%PW%`,
// `<your-token>`, `{{ secrets.X }}`, `null`): masking them only loses information.
const NOT_A_VALUE = '(?![$%<{*]|(?:null|none|nil|true|false|undefined)(?![A-Za-z0-9_]))';

// The other tokens a `.netrc` entry may carry between `machine` and `password`.
const NETRC_TOKENS = '(?:\\s{1,64}(?:account|port)\\s{1,64}[^\\s]{1,256}){0,2}';
const NETRC_LOGIN = `\\s{1,64}login\\s{1,64}[^\\s;,()]{1,256}${NETRC_TOKENS}`;
const NETRC_DOTTED_HOST = '(?:[A-Za-z0-9_-]{1,63}\\.){1,16}[A-Za-z0-9_-]{1,63}(?![A-Za-z0-9._-])';

// A character of a bearer or basic credential.
const TOKEN_CHAR = '[A-Za-z0-9._~+/=-]';

// Every branch keeps its context in one capture group and loses the rest, so a single native
// replacement string does the work: no per-match callback on text dense with secrets.
const SECRET_SHAPES = new RegExp(
  [
    // key = value / "key": "value" / key: 'value'. An open quote takes the value to the closing
    // quote (or 1 KiB) without requiring it, so unterminated values cannot make an attempt fail late.
    `((?:${SECRET_KEYWORDS.join('|')})["']?[ \\t]{0,4}(?::=|=|:)[ \\t]{0,4})` +
      `(?:(["'])${NOT_A_VALUE}[^"'\\r\\n]{1,1024}|${NOT_A_VALUE}[^\\s"'&,;<>\`]{1,1024})`,
    // `Basic authentication` and `Bearer of bad news` are prose: a credential has a digit, a
    // symbol or a capital after its first character. The length is checked first (cheap on a
    // `Bearer Bearer` flood), spelled as eight classes: a `{8}` is a counted loop, which made
    // each failed attempt cost as much as the rest of the scan. The letter run is taken
    // atomically (lookahead + backreference), so it is scanned once and never backtracked.
    `((?<![A-Za-z])[Bb](?:earer|asic)[ \\t]{1,4})` +
      `(?=${TOKEN_CHAR.repeat(8)})(?=[0-9._~+/=-]|[A-Za-z](?=([a-z]{0,4096}))\\4[0-9._~+/=A-Z-])${TOKEN_CHAR}{8,4096}`,
    // A `.netrc` entry (`machine h login u password p`, on one line or many): the host and login
    // stay. The login may be left out only after a dotted host (`machine api.example.com
    // password p`); after any other host it is required (the two host forms never both match, so
    // an entry is tried once), and a login never ends a clause (`;`, `,`), so prose such as
    // `machine learning password` or `logs login attempts; password` stays.
    `(${BOUNDARY}(?:machine[ \\t]{1,16}(?:${NETRC_DOTTED_HOST}${NETRC_TOKENS}(?:${NETRC_LOGIN})?|` +
      `[A-Za-z0-9_-]{1,253}(?![A-Za-z0-9._-])${NETRC_TOKENS}${NETRC_LOGIN})|` +
      `default${NETRC_TOKENS}${NETRC_LOGIN})` +
      `\\s{1,64}password\\s{1,64})${NOT_A_VALUE}(?:"[^"\\r\\n]{1,256}"?|[^\\s]{1,256})`,
    // The password of URL userinfo; the user part and the rest of the URL stay readable.
    `(://[^\\s/?#@:]{0,256}:)${NOT_A_VALUE}[^\\s/?#@]{1,256}(?=@)`,
    // A command-line `user:password` (`curl -u admin:pw`, `--user=admin:pw`): the user stays.
    `((?<![A-Za-z0-9_-])(?:-u|--user)(?:[ \\t]{1,4}|=)[^\\s:'"/]{1,128}:)${NOT_A_VALUE}[^\\s'"]{1,256}`,
    // Incoming webhooks: the URL is the credential. The host stays, the path goes.
    `(https://(?:hooks\\.slack\\.com/(?:services|workflows|triggers)/|[A-Za-z0-9-]{1,63}\\.webhook\\.office\\.com/webhookb2/))[A-Za-z0-9@/_-]{8,512}`,
    ...VENDOR_TOKEN_BRANCHES,
    // A GitLab session cookie and a NuGet.Config password: the name stays, the value goes. One
    // alternative: each top-level one is tried at every position its first unit allows.
    '(?:(_gitlab_session=)[0-9a-z]{32}|' +
      `(<add key="(?:[Cc]lear[Tt]ext)?[Pp]assword"[ \\t]{0,16}value=")${NOT_A_VALUE}[^"\\r\\n]{1,1024})`,
  ].join('|'),
  'g',
);

// A literal every branch above holds: a keyword's stem (any case), the bearer/basic word's tail,
// `://` (userinfo, webhooks), `-u` (also in `--user`) or a vendor prefix (`VENDOR_ANCHOR`, kept
// beside the vendor shapes). A text with none holds no shape, and these alternations of short
// literals are scanned faster than the shapes. A new branch must add its literal here; the
// sparse tokens (`vendor-token-shapes.ts`) are a second scan with a screen of their own. Two scans, not one: with the `i` flag the keywords
// are read three to four times faster than spelled as `[pP][aA]…` classes, and the vendor
// prefixes must stay case-sensitive (`AKIA`, not `akia`) to rule out as much text as before.
// Together they read a text with neither in half to two thirds of the time of the one
// alternation; a text holding only a vendor prefix pays the keyword scan, on the way to the full
// scan of the shapes that costs several times more.
const KEYWORD_ANCHOR = new RegExp(
  [
    'pass',
    'secret',
    'token',
    'api',
    'access',
    'private',
    'credential',
    'auth',
    'session',
    // Case-sensitive in the shapes: matching them in any case only lets more text through.
    'earer',
    'asic',
    '://',
    '-u',
  ].join('|'),
  'i',
);

function holdsAnchor(text: string): boolean {
  return KEYWORD_ANCHOR.test(text) || VENDOR_ANCHOR.test(text);
}

// The same shapes without `g`, so a test keeps no `lastIndex` between calls.
const ANY_SECRET_SHAPE = new RegExp(SECRET_SHAPES.source);

// The kept context of whichever branch matched (unmatched groups are empty), then the marker.
const REPLACEMENT = `$1$2$3$5$6$7$8$9$10${REDACTED}`; // $4 is the bearer letter run, never kept
