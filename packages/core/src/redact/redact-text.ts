import { decodeJsonEscapes } from './decode-json-escapes.js';
import { mayHoldSecretShape, redactSecretShapedText } from './redact-secret-shaped-text.js';

// JSON inside JSON (a file of JSON read into a result, then serialised) escapes each backslash
// again: a secret may sit under several levels. Each level's reading is half as long or less, so
// a few levels cover any real nesting.
const MAX_LEVELS = 8;

/**
 * `redactSecretShapedText` that cannot be defeated by how the text is encoded: the text is also
 * read with its JSON escapes decoded (`…\nghp_…` is a line starting with a token, not a word
 * `nghp_…`), level after level. Where a decoded reading holds a shape the plainer one did not,
 * that reading is what is returned, redacted: a display and log projection may lose an escape's
 * spelling, never keep a secret. Text without a backslash costs one plain pass, as before.
 */
export function redactText(text: string): string {
  let shown = redactSecretShapedText(text);
  // Each level is decoded from the one above as written, not as redacted: a plain pass can take
  // an escape's backslash into a value (`api_key: \"…` loses only the `\`) and leave the
  // secret behind a quote the decoded reading no longer sees as escaped.
  let reading = text;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const decoded = decodeJsonEscapes(reading);
    if (decoded === reading) break;
    const redacted = redactSecretShapedText(decoded);
    if (redacted !== decoded) shown = redacted;
    reading = decoded;
  }
  return shown;
}

/** False only when `redactText` would change nothing in `text`, read at any level. */
export function mayHoldEncodedSecret(text: string): boolean {
  let reading = text;
  for (let level = 0; level <= MAX_LEVELS; level++) {
    if (mayHoldSecretShape(reading)) return true;
    const decoded = decodeJsonEscapes(reading);
    if (decoded === reading) return false;
    reading = decoded;
  }
  return false;
}
