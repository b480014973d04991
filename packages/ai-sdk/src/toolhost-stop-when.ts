import { DEFAULT_MAX_TOOL_TURNS } from '@toolhost/core/loop';
import { stepCountIs, type StepResult, type StopCondition, type ToolSet } from 'ai';
import { toolhostSettingsList } from './toolhost-tools.js';
import { isTurnEnding } from './turn-marks.js';

/** Options of `toolhostStopWhen`. */
export interface ToolhostStopWhenOptions {
  /** Model rounds per turn; default 16. */
  readonly maxTurns?: number;
}

/**
 * The stop conditions that apply toolhost's ladder to `generateText` / `streamText`: stop after a
 * step whose tool call ended the turn (fatal, denied, cancelled), after the correction budget of
 * the tool set's options is spent (rounds with fed-back failures, SDK-rejected calls included),
 * or after `maxTurns` rounds. `toolhostTurnError(result.steps)` then names the typed error.
 */
export function toolhostStopWhen(
  tools: ToolSet,
  options: ToolhostStopWhenOptions = {},
): StopCondition<ToolSet>[] {
  const maxCorrections = correctionBudgetOf(tools);
  if (maxCorrections === undefined) {
    throw new TypeError('toolhost: toolhostStopWhen needs a tool set holding toolhostTools tools');
  }
  return [
    stepCountIs(options.maxTurns ?? DEFAULT_MAX_TOOL_TURNS),
    ({ steps }) => endedTurn(steps.at(-1)),
    ({ steps }) => steps.filter(isCorrectionRound).length > maxCorrections,
  ];
}

/**
 * The correction budget of the toolhost tools in `tools` (a set merged from several
 * `toolhostTools` calls keeps the smallest), or `undefined` when none is a toolhost tool.
 */
export function correctionBudgetOf(tools: ToolSet): number | undefined {
  const budgets = toolhostSettingsList(tools).map((settings) => settings.maxCorrections);
  return budgets.length === 0 ? undefined : Math.min(...budgets);
}

/** True when the step holds a tool call that ended the turn. */
export function endedTurn(step: StepResult<ToolSet> | undefined): boolean {
  return (
    step?.content.some((part) => part.type === 'tool-error' && isTurnEnding(part.error)) ?? false
  );
}

/** True when the step fed at least one failure back to the model. */
export function isCorrectionRound(step: StepResult<ToolSet>): boolean {
  return step.content.some((part) => part.type === 'tool-error' && !isTurnEnding(part.error));
}
