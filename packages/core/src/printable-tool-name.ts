import { redactText } from './redact/redact-text.js';

/** A model-chosen tool name as a message may carry it: as-is only when plainly an identifier. */
export function printableToolName(name: unknown): string {
  return typeof name === 'string' && isPlainName(name) ? name : '(unprintable name)';
}

/** The same name quoted for an error message, or the fixed placeholder. */
export function describeName(name: string): string {
  return isPlainName(name) ? `"${name}"` : '(unprintable name)';
}

// A model-chosen name is echoed only when it is plainly an identifier; anything else could carry
// an injected payload or a secret into a log line.
// A plain identifier can still be a secret (`ghp_…`, `AKIA…`): one the redactor would touch is
// not echoed either.
const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function isPlainName(name: string): boolean {
  return PLAIN_NAME.test(name) && redactText(name) === name;
}
