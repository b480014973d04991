/** A model-chosen tool name as a message may carry it: as-is only when plainly an identifier. */
export function printableToolName(name: unknown): string {
  return typeof name === 'string' && PLAIN_NAME.test(name) ? name : '(unprintable name)';
}

/** The same name quoted for an error message, or the fixed placeholder. */
export function describeName(name: string): string {
  return PLAIN_NAME.test(name) ? `"${name}"` : '(unprintable name)';
}

// A model-chosen name is echoed only when it is plainly an identifier; anything else could carry
// an injected payload or a secret into a log line.
const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
