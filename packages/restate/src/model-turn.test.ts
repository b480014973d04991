import * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';

import { assistantMessage, checkModelTurn } from './model-turn.js';

describe('checkModelTurn', () => {
  it('keeps text and calls, and echoes them as the assistant message', () => {
    const turn = checkModelTurn({
      text: 'ok',
      toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'a' } }],
    });

    expect(assistantMessage(turn)).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'ok' },
        { type: 'tool_call', toolCallId: 'c1', toolName: 'read_file', args: { path: 'a' } },
      ],
    });
  });

  it.each([
    ['not an object', 'hi'],
    ['text not a string', { text: 1 }],
    ['calls not an array', { toolCalls: {} }],
    ['a call without an id', { toolCalls: [{ name: 'read_file' }] }],
    [
      'two calls sharing an id',
      {
        toolCalls: [
          { id: 'a', name: 'x' },
          { id: 'a', name: 'y' },
        ],
      },
    ],
    [
      'too many calls',
      { toolCalls: Array.from({ length: 129 }, (_, i) => ({ id: `c${i}`, name: 'x' })) },
    ],
  ])('refuses %s as a terminal (not retried) failure', (_name, turn) => {
    expect(() => checkModelTurn(turn)).toThrow(restate.TerminalError);
  });
});
