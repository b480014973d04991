import type { ToolDispatchError } from '@toolhost/core';
import type { StepResult, ToolSet } from 'ai';
import { asToolhostError } from './as-toolhost-error.js';
import { correctionBudgetOf, isCorrectionRound } from './toolhost-stop-when.js';
import { isTurnEnding } from './turn-marks.js';

/**
 * The typed toolhost error that ended a `generateText` turn, or `undefined` when the turn ended
 * normally: the error a tool call ended it with, else the last fed-back failure once the
 * correction budget of `tools` was spent. Always a `ToolDispatchError`: a call the SDK rejected
 * or an application tool's throw comes back as the toolhost error of the same rung.
 */
export function toolhostTurnError(
  tools: ToolSet,
  steps: readonly StepResult<ToolSet>[],
): ToolDispatchError | undefined {
  const offered = Object.keys(tools);
  const last = steps.at(-1);
  const ending = last?.content.find(
    (part) => part.type === 'tool-error' && isTurnEnding(part.error),
  );
  if (ending?.type === 'tool-error') return asToolhostError(ending, last?.content ?? [], offered);
  const maxCorrections = correctionBudgetOf(tools) ?? Infinity;
  if (last === undefined || steps.filter(isCorrectionRound).length <= maxCorrections)
    return undefined;
  const fedBack = last.content.find((part) => part.type === 'tool-error');
  return fedBack?.type === 'tool-error'
    ? asToolhostError(fedBack, last.content, offered)
    : undefined;
}
