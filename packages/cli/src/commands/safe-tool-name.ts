import { redactText } from '@toolhost/core/redact';

/**
 * A user-typed tool name fit for output: echoed only when it is plainly an identifier and no
 * secret shape (`ghp_…` and a JWT are identifiers too).
 */
export function safeToolName(name: string): string {
  return /^[A-Za-z0-9_.-]{1,128}$/.test(name) && redactText(name) === name
    ? name
    : '(unprintable name)';
}
