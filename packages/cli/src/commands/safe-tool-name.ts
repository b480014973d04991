/** A user-typed tool name fit for output: echoed only when it is plainly an identifier. */
export function safeToolName(name: string): string {
  return /^[A-Za-z0-9_.-]{1,128}$/.test(name) ? name : '(unprintable name)';
}
