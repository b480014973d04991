import { REDACTED } from './redacted-marker.js';

// The vendor tokens of `redactSecretShapedText`: credentials recognised by a prefix of their own
// (`ghp_`, `AKIA`, `dop_v1_`), no keyword needed. The shapes follow gitleaks' default rules
// that have such a prefix; the rules that need a keyword or an entropy score are left to the
// keyword branch or left out (`docs/secret-shapes.md` lists which and why).

/**
 * A token never starts in the middle of another identifier (`task-force` is not `sk-…`). The
 * boundary is also what keeps the JWT branch linear: a failed attempt scans one run once.
 */
export const BOUNDARY = '(?<![A-Za-z0-9_-])';
// A vendor prefix no word ends in (`AKIA`, `ghp_`, `xoxb-`) may follow a `-` or `_`: a token glued
// into a name (`keys-AKIA…`, `backup_ghp_…`) is still the token. Each of these runs is bounded,
// so an attempt at every separator stays linear.
const AFTER_SEPARATOR = '(?<![A-Za-z0-9])';

type Token = readonly [first: string, boundary: string, rest: string];

// One alternative per first unit: `c(?:rest|rest…)`. A token's boundary is checked after its
// first unit, not before it: `c(?<!X.)rest` holds exactly where `(?<!X)c…` does, but an
// alternation whose branches each open with a literal is skipped through fast, while one opening
// with a lookbehind is tried at every unit. An empty boundary is none (the token checks its own
// context).
function byFirstUnit(tokens: readonly Token[]): string[] {
  const groups = new Map<string, string[]>();
  for (const [first, boundary, rest] of tokens) {
    const group = groups.get(first) ?? [];
    // `(?<!X)` → `(?<!X.)`: the unit before the one just read.
    group.push(boundary === '' ? rest : `${boundary.slice(0, -1)}.)${rest}`);
    groups.set(first, group);
  }
  return [...groups].map(([first, rests]) => `${first}(?:${rests.join('|')})`);
}

// AWS key ids; one followed, after separators only (a CSV row, a tuple, two lines), by a
// 40-character secret access key takes the key with it: the secret has no keyword and no prefix
// of its own, its key id is the only context that tells it from a hash. The separators cannot be
// secret characters, so the run before the secret ends in one place.
const AWS: readonly Token[] = [
  [
    'A',
    AFTER_SEPARATOR,
    '(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}' +
      `(?:[\\s,;:|'"\`()\\[\\]{}<>]{1,16}[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=]))?`,
  ],
  ['A', AFTER_SEPARATOR, 'Iza[A-Za-z0-9_-]{30,64}'],
  ['A', AFTER_SEPARATOR, 'GE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}'],
  ['A', AFTER_SEPARATOR, 'KCp[A-Za-z0-9]{69}'],
  [
    'A',
    AFTER_SEPARATOR,
    '3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
  ],
  ['A', AFTER_SEPARATOR, 'TATT3[A-Za-z0-9_=-]{186}'],
  ['A', AFTER_SEPARATOR, 'PI-[A-Z0-9]{26}(?![A-Za-z0-9])'],
];

// Capitals are rare in ordinary text: these share one alternative, whose quick check rules out
// every lowercase unit, digit and blank at once.
const CAPITALS: readonly Token[] = [
  ['C', AFTER_SEPARATOR, 'LOJARS_[A-Za-z0-9]{60}'],
  ['E', AFTER_SEPARATOR, 'Z[AT]K[A-Za-z0-9]{54}'],
  ['E', AFTER_SEPARATOR, 'AA[MC][A-Za-z0-9]{100,1024}'],
  ['E', AFTER_SEPARATOR, 'AAA[A-Za-z0-9_-]{22,60}'],
  ['F', AFTER_SEPARATOR, 'LWSECK(?:_TEST)?-[a-hA-H0-9]{12,32}(?:-X)?'],
  ['G', AFTER_SEPARATOR, 'R1348941[A-Za-z0-9_-]{20}'],
  ['H', AFTER_SEPARATOR, 'RKU-AA[A-Za-z0-9_-]{58}'],
  ['N', AFTER_SEPARATOR, 'R(?:AK-[A-Za-z0-9]{27}|II-[A-Za-z0-9-]{32})'],
  ['P', AFTER_SEPARATOR, 'MAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}'],
  // `SK` and `SG.` are short: a word may end in them, so they keep the full boundary.
  ['S', BOUNDARY, 'K[0-9a-fA-F]{32}(?![A-Za-z0-9])'],
  ['S', BOUNDARY, 'G\\.[A-Za-z0-9_.=-]{66}'],
  // An Azure AD client secret (`xxx8Q~…`) is found from its `Q~`: the four units before stay.
  ['Q', '', '(?<=(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}[0-9]Q)~[A-Za-z0-9_~.-]{31,34}'],
];

// Lowercase first units the keyword and netrc branches already start at: another token behind
// one of them costs ordinary text nothing measurable.
const LOWERCASE: readonly Token[] = [
  ['g', AFTER_SEPARATOR, 'h[pousr]_[A-Za-z0-9]{30,255}'],
  ['g', AFTER_SEPARATOR, 'ithub_pat_[A-Za-z0-9_]{22,255}'],
  ['g', AFTER_SEPARATOR, 'l(?:pat|dt|ptt|rt|cbt|ft|ffct|imt|oas|soat|agent)-[A-Za-z0-9_-]{20,255}'],
  // Base64 bodies (`glc_`, `fm2_`) open with eleven letters or digits: every shape holds a
  // 15-unit token run, which the short-secret screen relies on.
  ['g', AFTER_SEPARATOR, 'lc_[A-Za-z0-9]{11}[A-Za-z0-9+/]{21,389}={0,3}'],
  ['g', AFTER_SEPARATOR, 'lsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'],
  ['x', AFTER_SEPARATOR, 'ox[abposer]-[A-Za-z0-9-]{10,255}'],
  ['x', AFTER_SEPARATOR, 'app-[0-9]-[A-Za-z0-9-]{10,255}'],
  ['x', AFTER_SEPARATOR, 'keysib-[a-f0-9]{64}-[A-Za-z0-9]{16}'],
  ['w', AFTER_SEPARATOR, 'hsec_[A-Za-z0-9]{20,255}'],
  ['p', AFTER_SEPARATOR, 'ypi-[A-Za-z0-9_-]{50,512}'],
  // Prefixes a word can end in (`task-force`, `desk_test_…`, `self_hf_…`) keep the full
  // boundary, as does the JWT, whose three unbounded-looking runs it keeps linear.
  ['p', BOUNDARY, '8e-[A-Za-z0-9]{32}'],
  ['p', BOUNDARY, 'plx-[A-Za-z0-9]{48}'],
  ['p', BOUNDARY, 'scale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}'],
  ['p', BOUNDARY, 'nu_[A-Za-z0-9]{36}'],
  ['p', BOUNDARY, 'ul-[a-f0-9]{40}(?![A-Za-z0-9])'],
  ['p', BOUNDARY, 'at\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}'],
  ['s', BOUNDARY, 'k-[A-Za-z0-9_-]{20,512}'],
  ['s', BOUNDARY, 'k_(?:live|test|prod)_[A-Za-z0-9]{10,255}'],
  ['s', BOUNDARY, 'ha256~[A-Za-z0-9_-]{43}'],
  ['s', BOUNDARY, '-s4t2(?:ud|af)-[a-f0-9]{64}'],
  ['s', BOUNDARY, 'ntry(?:u_[a-f0-9]{64}|s_eyJpYXQiO[A-Za-z0-9+/=_]{60,1024})'],
  ['s', BOUNDARY, 'm_[aps]at_[A-Za-z0-9]{16}'],
  ['s', BOUNDARY, 'hippo_(?:live|test)_[A-Fa-f0-9]{40}'],
  ['s', BOUNDARY, 'hp(?:at|ca|pa|ss)_[A-Fa-f0-9]{32}'],
  ['s', BOUNDARY, 'q0(?:atp|csp)-[A-Za-z0-9_-]{22,60}'],
  ['s', BOUNDARY, 'gp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}'],
  ['s', BOUNDARY, 'at\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}'],
  ['r', BOUNDARY, 'k_(?:live|test|prod)_[A-Za-z0-9]{10,255}'],
  ['r', BOUNDARY, 'dme_[a-z0-9]{70}'],
  ['r', BOUNDARY, 'ubygems_[a-f0-9]{48}'],
  ['h', BOUNDARY, 'f_[A-Za-z0-9]{30,64}'],
  ['h', BOUNDARY, 'v[sb]\\.[A-Za-z0-9_-]{90,300}'],
  ['n', BOUNDARY, 'pm_[A-Za-z0-9]{30,64}'],
  ['n', BOUNDARY, 'tn_[0-9]{11}[A-Za-z0-9]{35}'],
  ['e', BOUNDARY, 'yJ[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,4096}\\.[A-Za-z0-9_-]{8,4096}'],
  ['e', BOUNDARY, 'yJrIjoi[A-Za-z0-9]{70,400}={0,3}'],
];

/** The vendor-token branches of the main scan: AWS and `AIza`, the capitals, the lowercase. */
export const VENDOR_TOKEN_BRANCHES: readonly string[] = [
  ...byFirstUnit(AWS),
  `(?:${byFirstUnit(CAPITALS).join('|')})`,
  ...byFirstUnit(LOWERCASE),
];

/**
 * A literal every vendor branch holds. Case-sensitive: matching a prefix in any case only lets
 * more text through to the full scan.
 */
export const VENDOR_ANCHOR = new RegExp(
  [
    'AKIA|ASIA|ABIA|ACCA|A3T|AIza|AGE-|AKCp|A3-|ATATT3|API-',
    'CLOJARS_|EZ[AT]K|EAA|FLWSECK|GR1348941|HRKU-|NR(?:AK|II)-|PMAK-|SK[0-9a-fA-F]|SG\\.|Q~',
    'gh[pousr]_|github_pat_|gl(?:pat|dt|ptt|rt|cbt|ft|ffct|imt|oas|soat|agent)-|glc_|glsa_',
    'xox[abposer]-|xapp-|xkeysib-|whsec_',
    'pypi-|p8e-|pplx-|pscale_|pnu_|pul-|pat\\.',
    'sk-|sk_|sha256~|s-s4t2|sntry|sm_[aps]at_|shippo_|shp(?:at|ca|pa|ss)_|sq0|sgp_|sat\\.',
    'rk_|rdme_|rubygems_|hf_|hv[sb]\\.|npm_|ntn_|eyJ',
  ].join('|'),
);

// Tokens whose first unit is a lowercase letter no other branch starts at (`dapi…`, `dop_v1_…`,
// `lin_api_…`). As branches of the main scan they cost a quarter of its rate on ordinary text
// (each new first unit is tried at every such letter); as a second scan behind a screen of
// their literals, which rules out nearly every text, about a seventh.
const SPARSE = byFirstUnit([
  // A Terraform Cloud token is `<14 characters>.atlasv1.<secret>`: found from its literal, the
  // id before it stays.
  ['a', BOUNDARY, '(?<=[A-Za-z0-9]{14}\\.a)tlasv1\\.[A-Za-z0-9_=-]{60,70}'],
  ['a', BOUNDARY, 'pi_org_[A-Za-z]{34}'],
  ['d', BOUNDARY, 'api[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])'],
  ['d', BOUNDARY, 'o[opr]_v1_[a-f0-9]{64}'],
  ['d', BOUNDARY, 'p\\.pt\\.[A-Za-z0-9]{43}'],
  ['d', BOUNDARY, 'uffel_(?:test|live)_[A-Za-z0-9_=-]{43}'],
  ['d', BOUNDARY, 't0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}'],
  ['f', BOUNDARY, 'o1_[A-Za-z0-9_-]{43}'],
  ['f', BOUNDARY, 'm(?:1[ar]|2)_[A-Za-z0-9]{11}[A-Za-z0-9+/]{89,4096}={0,3}'],
  ['f', BOUNDARY, 'io-u-[A-Za-z0-9_=-]{64}'],
  ['i', BOUNDARY, 'co-[A-Za-z0-9]{32}(?![A-Za-z0-9])'],
  ['l', BOUNDARY, 'in_api_[A-Za-z0-9]{40}'],
  ['o', BOUNDARY, 'ps_eyJ[A-Za-z0-9+/]{250,8192}={0,3}'],
  ['t', BOUNDARY, 'k-us-[A-Za-z0-9_-]{48}'],
  ['t', BOUNDARY, 'fp_[A-Za-z0-9_.=-]{59}'],
]).join('|');
const SPARSE_TOKENS = new RegExp(SPARSE, 'g');
const ANY_SPARSE_TOKEN = new RegExp(SPARSE);
// `pi_org_`, not `api_org_`: no literal here starts with `a`, so a run of `a`s is skipped fast.
const SPARSE_ANCHOR =
  /\.atlasv1\.|pi_org_|dapi|do[opr]_v1_|dp\.pt\.|duffel_|dt0c01\.|fo1_|fm(?:1[ar]|2)_|fio-u-|ico-|lin_api_|ops_eyJ|tk-us-|tfp_/;

/** `text` with every sparse token (see `SPARSE`) replaced by the marker. */
export function redactSparseTokens(text: string): string {
  return SPARSE_ANCHOR.test(text) ? text.replace(SPARSE_TOKENS, REDACTED) : text;
}

/** False only when `redactSparseTokens` would replace nothing in `text`. */
export function mayHoldSparseToken(text: string): boolean {
  return SPARSE_ANCHOR.test(text) && ANY_SPARSE_TOKEN.test(text);
}
