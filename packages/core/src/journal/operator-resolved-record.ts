import type { SettledEffect } from './effect-journal.js';

/**
 * What a replay of an operator's resolution answers, as both the model-facing result and the
 * output: fixed text, since the effect's own result was never recorded.
 */
export const OPERATOR_RESOLVED_RESULT =
  'toolhost: this call was resolved as done by the operator; its effect is not run again and its original result is unavailable';

/**
 * The record an operator settles an unresolved claim with (`toolhost journal resolve … --as
 * done`): the effect is known to have happened outside toolhost's sight. A replay of it answers
 * with `OPERATOR_RESOLVED_RESULT`, never by running the effect again.
 */
export function operatorResolvedRecord(resolvedAt: string): SettledEffect {
  return { kind: 'operator_resolved', outcome: 'done', resolvedAt };
}

/** Whether a settled record is an operator's resolution rather than a dispatch's own. */
export function isOperatorResolvedRecord(record: SettledEffect): boolean {
  return record['kind'] === 'operator_resolved';
}
