import type { StepResult, ToolSet } from 'ai';
import { toolhostSettings } from './toolhost-tools.js';
import { isCorrectionRound } from './toolhost-stop-when.js';
import { isTurnEnding, ToolCallFeedbackError } from './turn-marks.js';

/**
 * The typed toolhost error that ended a `generateText` turn, or `undefined` when the turn ended
 * normally: the error a tool call ended it with, else the last fed-back failure once the
 * correction budget of `tools` was spent.
 */
export function toolhostTurnError(tools: ToolSet, steps: readonly StepResult<ToolSet>[]): unknown {
  const last = steps.at(-1);
  const ending = last?.content.find(
    (part) => part.type === 'tool-error' && isTurnEnding(part.error),
  );
  if (ending?.type === 'tool-error') return ending.error;
  const maxCorrections = toolhostSettings(tools)?.maxCorrections ?? Infinity;
  if (last === undefined || steps.filter(isCorrectionRound).length <= maxCorrections)
    return undefined;
  const fedBack = last.content.find((part) => part.type === 'tool-error');
  if (fedBack?.type !== 'tool-error') return undefined;
  // Escalate as the typed error the feedback was made from, when toolhost made it.
  return fedBack.error instanceof ToolCallFeedbackError ? fedBack.error.toolError : fedBack.error;
}
