import type { Span } from '@opentelemetry/api';
import type { ToolDispatchOutcome } from '@toolhost/core';
import { clipAttribute } from './clip-attribute.js';

/** What a successful dispatch may add to its span. */
export interface RecordOutcomeOptions {
  readonly recordArguments: boolean;
  readonly recordResults: boolean;
}

/**
 * The outcome's journal status as an event, and, opted in, the redacted projections core
 * already computed for an event bus: never the effective args or the result themselves.
 */
export function recordOutcome(
  span: Span,
  outcome: ToolDispatchOutcome,
  options: RecordOutcomeOptions,
): void {
  span.setAttribute('toolhost.result.truncated', outcome.truncated);
  recordJournal(span, outcome.journal);
  if (options.recordArguments) {
    const text = jsonOf(outcome.events.call.toolInput);
    if (text !== undefined) span.setAttribute('gen_ai.tool.call.arguments', clipAttribute(text));
  }
  if (options.recordResults) {
    span.setAttribute(
      'gen_ai.tool.call.result',
      clipAttribute(outcome.events.result.outputSummary),
    );
  }
}

function recordJournal(span: Span, journal: ToolDispatchOutcome['journal']): void {
  if (journal === undefined) return;
  span.setAttribute('toolhost.journal.status', journal.status);
  const detail = {
    'toolhost.journal.output_dropped': journal.outputDropped,
    'toolhost.journal.operator_resolved': journal.operatorResolved,
  };
  if (journal.status === 'replayed') span.addEvent('toolhost.journal.replayed', detail);
  else if (journal.status === 'settled') span.addEvent('toolhost.journal.settled', detail);
  // The effect ran but no record was written: the claim stays unresolved for an operator.
  else span.addEvent('toolhost.journal.unresolved', { 'toolhost.journal.reason': 'unsettled' });
}

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
