import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { EffectJournalError, ToolDispatchError, UnknownToolError } from '@toolhost/core';
import { UNKNOWN_TOOL_MESSAGE } from '@toolhost/core/dispatch';
import { redactText } from '@toolhost/core/redact';
import { clipAttribute } from './clip-attribute.js';

/** The semconv's fallback `error.type` when the failure is not a toolhost dispatch error. */
export const OTHER_ERROR_TYPE = '_OTHER';

const MAX_STATUS_MESSAGE = 1024;

// A claim these leave behind may have had its effect: an operator must settle or discard it.
const UNRESOLVED_REASONS: ReadonlySet<string> = new Set([
  'effect_unresolved',
  'journal_media_refused',
]);

/**
 * `error.type` is the toolhost `code`; the status carries the error's fixed, secret-free
 * message (redacted again, in case a host put something in a reason). Never a stack, a cause
 * or `recordException`: those hold paths and argument values. A foreign throw says nothing, and
 * an unknown tool says so in fixed words: its message quotes the name the model chose.
 */
export function recordFailure(span: Span, error: unknown): void {
  if (!(error instanceof ToolDispatchError)) {
    span.setAttribute('error.type', OTHER_ERROR_TYPE);
    span.setStatus({ code: SpanStatusCode.ERROR });
    return;
  }
  span.setAttribute('error.type', error.code);
  const reason = reasonOf(error);
  if (reason !== undefined) span.setAttribute('toolhost.error.reason', reason);
  if (error instanceof EffectJournalError && UNRESOLVED_REASONS.has(error.reason)) {
    span.addEvent('toolhost.journal.unresolved', { 'toolhost.journal.reason': error.reason });
  }
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message:
      error instanceof UnknownToolError
        ? UNKNOWN_TOOL_MESSAGE
        : clipAttribute(redactText(error.message), MAX_STATUS_MESSAGE),
  });
}

// Every dispatch error's `reason` is a snake_case literal (a host's execution reason is a short
// code by contract); anything else is left off.
function reasonOf(error: ToolDispatchError): string | undefined {
  const reason: unknown = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' && /^[a-z0-9_]{1,64}$/.test(reason) ? reason : undefined;
}
