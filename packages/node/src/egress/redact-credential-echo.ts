import { decodeEscapes } from './decode-escapes.js';

/**
 * The spellings of one credential that an echo endpoint can hand back and a model can read
 * back into the secret: the raw value (and `+` for its spaces, as a form encoder writes them),
 * and its base64 / base64url at each of the three byte alignments it can sit at inside a larger
 * blob (only the characters that depend on the secret alone, so padding, the blob around it and
 * a header scheme before it change nothing). Escaped spellings (JSON, percent, HTML) need no
 * entry of their own: the text is decoded before these are searched. Build once per response.
 */
export function credentialForms(secret: string): readonly string[] {
  const forms = new Set([secret, secret.replaceAll(' ', '+')]);
  // The header goes out as latin-1 bytes; a server may re-encode what it read as UTF-8.
  for (const encoding of ['latin1', 'utf8'] as const) {
    for (const core of base64Cores(Buffer.from(secret, encoding))) {
      forms.add(core);
      forms.add(core.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...forms];
}

/** Whether `text` carries the credential in any of its forms, raw or under escapes. */
export function echoesCredential(text: string, forms: readonly string[]): boolean {
  return echoViews(text, false).some((view) => forms.some((form) => view.text.includes(form)));
}

/**
 * `text` with every echo of the credential (raw, escaped, percent-encoded, as entities, base64)
 * replaced by `[redacted]`, as the raw echo always was; `undefined` when a redacted text would
 * still carry it (the caller then withholds the text whole: deny wins).
 */
export function redactCredentialEcho(text: string, forms: readonly string[]): string | undefined {
  if (!echoesCredential(text, forms)) return text;
  const views = echoViews(text, true);
  const spans: Array<readonly [number, number]> = [];
  views.forEach((view, layer) => {
    for (const form of forms) {
      for (
        let at = view.text.indexOf(form);
        at >= 0;
        at = view.text.indexOf(form, at + form.length)
      ) {
        spans.push([toSource(views, layer, at), toSource(views, layer, at + form.length, true)]);
      }
    }
  });
  spans.sort((left, right) => left[0] - right[0]);
  const parts: string[] = [];
  let copied = 0;
  for (const [start, end] of spans) {
    if (end <= copied) continue;
    if (start >= copied) parts.push(text.slice(copied, start), REDACTED);
    copied = end;
  }
  parts.push(text.slice(copied));
  const redacted = parts.join('');
  return echoesCredential(redacted, forms) ? undefined : redacted;
}

/**
 * A text cut at the body cap, without a trailing beginning of any form of the credential, in
 * any decoded view: the cap can fall inside an echo, escaped or not, and its first characters
 * must not end the text. A trailing half escape (`%4`, `\u00`) goes too: it decodes to nothing.
 */
export function withoutTrailingEcho(text: string, forms: readonly string[]): string {
  const cutIn = (views: readonly View[]): number[] =>
    views.map(({ text: viewText }) => {
      const end = viewText.length - partialEscapeLength(viewText);
      return end - longestPrefixEnding(viewText, end, forms);
    });
  const plain = echoViews(text, false);
  const cuts = cutIn(plain);
  // Source offsets of a decoded view need its map: built only when a decoded view would cut.
  if (cuts.every((cut, layer) => layer === 0 || cut === plain[layer]?.text.length)) {
    return text.slice(0, cuts[0]);
  }
  const views = echoViews(text, true);
  const cut = Math.min(...cutIn(views).map((start, layer) => toSource(views, layer, start)));
  return text.slice(0, cut);
}

const REDACTED = '[redacted]';
// Three decodings catch an escape of an escape of an escape (a percent-encoded URL inside a
// JSON string inside an HTML page); each is one linear pass, and most bodies stop at the first.
const MAX_LAYERS = 3;
// A base64 run this short occurs by chance in any large blob: a secret that short is guarded
// by its raw and escaped forms only.
const MIN_CORE_LENGTH = 6;

interface View {
  readonly text: string;
  /** Index in this view → index in the previous one (absent for the raw text). */
  readonly map: Int32Array | undefined;
  /** Whether this view dropped characters, so an end maps after the last kept one. */
  readonly gaps: boolean;
}

// The raw text, each decoded layer until one changes nothing, then the last one without line
// breaks (MIME and PEM wrap base64 at 64-76 columns; a reader joins the lines). Spaces stay:
// dropping every one from 10 MiB of prose costs ~0.5 s.
function echoViews(text: string, withMaps: boolean): View[] {
  const views: View[] = [{ text, map: undefined, gaps: false }];
  let current = text;
  for (let layer = 0; layer < MAX_LAYERS; layer += 1) {
    const map = withMaps ? new Int32Array(current.length + 1) : undefined;
    const decoded = decodeEscapes(current, map);
    if (decoded === undefined) break;
    views.push({ text: decoded, map, gaps: false });
    current = decoded;
  }
  const unwrapped = withoutLineBreaks(current, withMaps);
  if (unwrapped !== undefined) views.push(unwrapped);
  return views;
}

function withoutLineBreaks(text: string, withMap: boolean): View | undefined {
  if (!text.includes('\n') && !text.includes('\r')) return undefined;
  if (!withMap)
    return { text: text.replaceAll('\n', '').replaceAll('\r', ''), map: undefined, gaps: true };
  const map = new Int32Array(text.length + 1);
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== LINE_FEED && code !== CARRIAGE_RETURN) map[length++] = index;
  }
  map[length] = text.length;
  return { text: text.replaceAll('\n', '').replaceAll('\r', ''), map, gaps: true };
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function toSource(views: readonly View[], layer: number, index: number, end = false): number {
  let at = index;
  for (let current = layer; current > 0; current -= 1) {
    const view = views[current];
    if (view?.map === undefined) throw new Error('echo view without a map');
    at = end && view.gaps && at > 0 ? (view.map[at - 1] ?? at) + 1 : (view.map[at] ?? at);
  }
  return at;
}

// Base64 of `bytes` sitting 0, 1 or 2 bytes into a 3-byte group: the characters before the
// first whole sextet of the secret and after its last are shared with its neighbours.
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (const offset of [0, 1, 2] as const) {
    const total = offset + bytes.length;
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = encoded.slice(LEADING_SHARED[offset], Math.floor(total / 3) * 4 + (total % 3));
    if (core.length >= MIN_CORE_LENGTH) cores.push(core);
  }
  return cores;
}

const LEADING_SHARED = [0, 2, 3] as const;

// The longest `length` such that `text[end - length, end)` begins some form.
function longestPrefixEnding(text: string, end: number, forms: readonly string[]): number {
  let longest = 0;
  for (const form of forms) {
    for (let length = Math.min(form.length - 1, end); length > longest; length -= 1) {
      if (text.startsWith(form.slice(0, length), end - length)) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

// A half-read escape at the very end: `%`, `%4`, `\`, `\u00`, `\x4`, `&#x4`, `&am`.
function partialEscapeLength(text: string): number {
  const tail = text.slice(-MAX_PARTIAL);
  const lead = Math.max(tail.lastIndexOf('%'), tail.lastIndexOf('\\'), tail.lastIndexOf('&'));
  if (lead < 0) return 0;
  return PARTIAL_ESCAPE.test(tail.slice(lead)) ? tail.length - lead : 0;
}

const MAX_PARTIAL = 32;
// Anchored at both ends and run on at most 32 characters: no backtracking to speak of.
const PARTIAL_ESCAPE = /^(?:%[0-9a-f]?|\\(?:u[0-9a-f]{0,3}|x[0-9a-f]?)?|&#?x?[0-9a-z]*)$/i;
