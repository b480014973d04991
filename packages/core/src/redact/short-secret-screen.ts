// What every secret shape (`redact-secret-shaped-text.ts`) needs, cheap to look for in a short
// text (an argument leaf, a path):
// a key-value, header, netrc, userinfo, `-u` or PEM shape has whitespace, `:` or `=`; a vendor
// token or JWT is a run of at least 15 of `[A-Za-z0-9_.~-]` (`xoxb-` and ten more is the
// shortest; `~` is in an Azure AD client secret). A text with neither cannot match, so it skips
// the full scan. Longer texts take the full scan at once: this screen, which retries a run at
// each of its starts, is for short ones.
export const SCREENED_UP_TO = 128;

// `/[\s:=]|[\w.~-]{15}/.test(text)` or more: any unit `\s` might be (every control unit, no-break
// space, everything from U+1680 up) counts as one. A loop, because the regex's fixed cost is
// several times this on an argument or a path.
export function mayHoldShortSecret(text: string): boolean {
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit <= 0x20 || unit === 0x3a || unit === 0x3d || unit === 0xa0 || unit >= 0x1680) {
      return true;
    }
    const word =
      (unit >= 0x61 && unit <= 0x7a) ||
      (unit >= 0x41 && unit <= 0x5a) ||
      (unit >= 0x30 && unit <= 0x39) ||
      unit === 0x5f ||
      unit === 0x2e ||
      unit === 0x2d ||
      unit === 0x7e;
    run = word ? run + 1 : 0;
    if (run >= 15) return true;
  }
  return false;
}
