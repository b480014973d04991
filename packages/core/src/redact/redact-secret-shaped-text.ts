import { redactPrivateKeyBlocks } from './redact-private-key-blocks.js';
import { REDACTED } from './redacted-marker.js';
import { mayHoldShortSecret, SCREENED_UP_TO } from './short-secret-screen.js';

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
    return redactPrivateKeyBlocks(text).replace(SECRET_SHAPES, REPLACEMENT);
  return holdsAnchor(text) ? text.replace(SECRET_SHAPES, REPLACEMENT) : text;
}

/**
 * False only when `redactSecretShapedText` would replace nothing in `text`: no shape matches
 * anywhere. A text with a `-----BEGIN ` header counts as holding one without being parsed.
 */
export function mayHoldSecretShape(text: string): boolean {
  if (text.length <= SCREENED_UP_TO && !mayHoldShortSecret(text)) return false;
  return text.includes('-----BEGIN ') || (holdsAnchor(text) && ANY_SECRET_SHAPE.test(text));
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

// A token never starts in the middle of another identifier (`task-force` is not `sk-…`). The
// boundary is also what keeps the JWT branch linear: a failed attempt scans one run once.
const BOUNDARY = '(?<![A-Za-z0-9_-])';
// A vendor prefix no word ends in (`AKIA`, `ghp_`, `xoxb-`) may follow a `-` or `_`: a token glued
// into a name (`keys-AKIA…`, `backup_ghp_…`) is still the token. Each of these runs is bounded,
// so an attempt at every separator stays linear.
const AFTER_SEPARATOR = '(?<![A-Za-z0-9])';

// A vendor token with its boundary checked after its first unit, not before it: `c(?<!X.)rest`
// holds exactly where `(?<!X)c…` does, but an alternation whose branches each open with a
// literal is skipped through fast, while one opening with a lookbehind is tried at every unit.
function afterFirst([first, rest]: readonly [string, string], boundary: string): string {
  // `(?<!X)` → `(?<!X.)`: the unit before the one just read.
  return `${first}${boundary.slice(0, -1)}.)${rest}`;
}

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
    `(https://hooks\\.slack\\.com/(?:services|workflows|triggers)/)[A-Za-z0-9/_-]{8,512}`,
    ...(
      [
        ['A', '(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16}'],
        ['g', 'h[pousr]_[A-Za-z0-9]{30,255}'],
        ['g', 'ithub_pat_[A-Za-z0-9_]{22,255}'],
        ['g', 'l(?:pat|dt|ptt|rt|cbt|ft|imt|oas|soat|agent)-[A-Za-z0-9_-]{20,255}'],
        ['x', 'ox[abposer]-[A-Za-z0-9-]{10,255}'],
        ['x', 'app-[0-9]-[A-Za-z0-9-]{10,255}'],
        ['w', 'hsec_[A-Za-z0-9]{20,255}'],
        ['A', 'Iza[A-Za-z0-9_-]{30,64}'],
        ['p', 'ypi-[A-Za-z0-9_-]{50,512}'],
      ] as const
    ).map((token) => afterFirst(token, AFTER_SEPARATOR)),
    // Prefixes a word can end in (`task-force`, `desk_test_…`, `self_hf_…`) keep the full boundary,
    // as does the JWT, whose three unbounded-looking runs it keeps linear.
    ...(
      [
        ['s', 'k-[A-Za-z0-9_-]{20,512}'],
        ['[sr]', 'k_(?:live|test)_[A-Za-z0-9]{10,255}'],
        ['h', 'f_[A-Za-z0-9]{30,64}'],
        ['n', 'pm_[A-Za-z0-9]{30,64}'],
        ['e', 'yJ[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,4096}\\.[A-Za-z0-9_-]{8,4096}'],
      ] as const
    ).map((token) => afterFirst(token, BOUNDARY)),
  ].join('|'),
  'g',
);

// A literal every branch above holds: a keyword's stem (any case), the bearer/basic word's tail,
// `://` (userinfo, Slack hooks), `-u` (also in `--user`) or a vendor prefix. A text with none
// holds no shape, and these alternations of short literals are scanned faster than the shapes.
// A new branch must add its literal here. Two scans, not one: with the `i` flag the keywords
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
const VENDOR_ANCHOR = new RegExp(
  [
    'AKIA|ASIA|ABIA|ACCA',
    'gh[pousr]_',
    'github_pat_',
    'gl(?:pat|dt|ptt|rt|cbt|ft|imt|oas|soat|agent)-',
    'xox[abposer]-',
    'xapp-',
    'whsec_',
    'AIza',
    'pypi-',
    'sk-',
    '[sr]k_',
    'hf_',
    'npm_',
    'eyJ',
  ].join('|'),
);

function holdsAnchor(text: string): boolean {
  return KEYWORD_ANCHOR.test(text) || VENDOR_ANCHOR.test(text);
}

// The same shapes without `g`, so a test keeps no `lastIndex` between calls.
const ANY_SECRET_SHAPE = new RegExp(SECRET_SHAPES.source);

// The kept context of whichever branch matched (unmatched groups are empty), then the marker.
const REPLACEMENT = `$1$2$3$5$6$7$8${REDACTED}`; // $4 is the bearer letter run, never kept
