import { decodeJsonEscapes } from './decode-json-escapes.js';
import { redactSecretShapedText } from './redact-secret-shaped-text.js';

/**
 * `redactSecretShapedText` that cannot be defeated by how the text is encoded: the text is also
 * read with its JSON escapes decoded (`…\nghp_…` is a line starting with a token, not a word
 * `nghp_…`). Where the decoded reading holds a shape the plain one did not, the decoded reading
 * is what is returned, redacted: a display and log projection may lose an escape's spelling,
 * never keep a secret. Text without a backslash costs one plain pass, as before.
 */
export function redactText(text: string): string {
  const plain = redactSecretShapedText(text);
  const decoded = decodeJsonEscapes(plain);
  if (decoded === plain) return plain;
  const redacted = redactSecretShapedText(decoded);
  return redacted === decoded ? plain : redacted;
}
