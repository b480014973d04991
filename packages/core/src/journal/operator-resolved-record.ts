import type { SettledEffect } from './effect-journal.js';

/**
 * The record an operator settles an unresolved claim with (`toolhost journal resolve … --as
 * done`): the effect is known to have happened outside toolhost's sight. A replay of it answers
 * with a fixed result saying so, never by running the effect again.
 */
export function operatorResolvedRecord(resolvedAt: string): SettledEffect {
  return { kind: 'operator_resolved', outcome: 'done', resolvedAt };
}

/** Whether a settled record is an operator's resolution rather than a dispatch's own. */
export function isOperatorResolvedRecord(record: SettledEffect): boolean {
  return record['kind'] === 'operator_resolved';
}
