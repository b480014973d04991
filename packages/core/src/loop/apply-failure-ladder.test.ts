import { describe, expect, it } from 'vitest';
import {
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  UnknownToolError,
} from '../errors.js';
import { applyFailureLadder } from './apply-failure-ladder.js';
import { createCorrectionBudget } from './correction-budget.js';

describe('applyFailureLadder', () => {
  it.each([
    ['unknown tool', new UnknownToolError('x', ['a']), false, 'feed_back'],
    ['invalid args', new ToolArgsInvalidError('a', ['path']), false, 'feed_back'],
    [
      'a correctable tool error',
      new ToolExecutionError('a', 'e', { correctable: true }),
      false,
      'feed_back',
    ],
    [
      'a recoverable read failure, opted out',
      new ToolExecutionError('a', 'not_found', { recoverable: true }),
      false,
      'end_turn',
    ],
    [
      'a recoverable read failure, opted in',
      new ToolExecutionError('a', 'not_found', { recoverable: true }),
      true,
      'feed_back',
    ],
    ['a scope escape, opted in', new ToolPolicyError('a', 'scope_escape'), true, 'feed_back'],
    [
      'a guardrail denial, opted in',
      new ToolPolicyError('a', 'command_not_allowed'),
      true,
      'end_turn',
    ],
    [
      'a user rejection, opted in',
      new ToolDeniedByUserError('a', 'user_rejected'),
      true,
      'end_turn',
    ],
    ['an unwired arm, opted in', new ToolUnavailableError('a', 'fs'), true, 'end_turn'],
    [
      'a side-effecting failure, opted in',
      new ToolExecutionError('a', 'exit_signal'),
      true,
      'end_turn',
    ],
    ['a cancellation, opted in', new ToolCancelledError('a'), true, 'end_turn'],
    ['a foreign error, opted in', new Error('boom'), true, 'end_turn'],
  ])('%s → %s', (_case, error, recoverToolFailures, action) => {
    const step = applyFailureLadder(error, {
      budget: createCorrectionBudget(),
      round: 1,
      recoverToolFailures,
    });

    expect(step.action).toBe(action);
  });

  it('ends the turn with the original typed error', () => {
    const error = new ToolDeniedByUserError('a', 'user_rejected');

    const step = applyFailureLadder(error, { budget: createCorrectionBudget(), round: 1 });

    expect(step).toEqual({ action: 'end_turn', error });
  });

  it('escalates a correctable error when the budget is spent', () => {
    const error = new UnknownToolError('x', []);

    const step = applyFailureLadder(error, { budget: createCorrectionBudget(0), round: 1 });

    expect(step).toEqual({ action: 'end_turn', error });
  });

  it('appends the tool-reported detail to the fixed message', () => {
    const error = new ToolExecutionError('mcp_db_query', 'tool_error', {
      correctable: true,
      detail: 'syntax error near FROM',
    });

    const step = applyFailureLadder(error, { budget: createCorrectionBudget(), round: 1 });

    expect(step).toEqual({
      action: 'feed_back',
      text: 'tool mcp_db_query failed: tool_error\nsyntax error near FROM',
      result: {
        toolId: 'mcp_db_query',
        success: false,
        outputSummary: 'tool mcp_db_query failed: tool_error',
      },
    });
  });

  it('projects a fed-back failure as an unsuccessful tool_result with its message', () => {
    const error = new ToolArgsInvalidError('read_file', ['path']);

    const step = applyFailureLadder(error, { budget: createCorrectionBudget(), round: 1 });

    expect(step).toMatchObject({
      action: 'feed_back',
      result: { toolId: 'read_file', success: false, outputSummary: error.message },
    });
  });
});
