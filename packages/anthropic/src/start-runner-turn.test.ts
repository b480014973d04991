import Anthropic from '@anthropic-ai/sdk';
import { createToolRegistry, ToolDeniedByUserError, type ConfirmActionHook } from '@toolhost/core';
import type { LoopRegistry } from '@toolhost/core/loop';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { echoTool, saveTool } from '../../core/src/loop/test-support/sample-tools.js';
import { createAnthropicToolhost } from './create-anthropic-toolhost.js';
import { recorded, startReplayServer, type ReplayServer } from './test-support/replay-server.js';
import { unansweredToolUse } from './test-support/validate-messages.js';

type Body = { messages: Anthropic.MessageParam[]; tools?: { name: string }[] };

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// The SDK's real client over real HTTP to a loopback fake Messages API that refuses, as the real
// one does, a conversation with an unanswered tool_use.
async function clientReplaying(...names: string[]): Promise<Anthropic> {
  const responses = await Promise.all(names.map((name) => recorded(name)));
  server = await startReplayServer(responses, { validate: unansweredToolUse });
  return new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.origin, maxRetries: 0 });
}

function registryOf(): LoopRegistry {
  return createToolRegistry({ tools: [echoTool, saveTool], host: {} });
}

function sent(index: number): Body {
  return server?.requests[index]?.body as Body;
}

function lastToolResults(index: number): unknown {
  return sent(index).messages.at(-1)?.content;
}

describe('startRunnerTurn in client.beta.messages.toolRunner', () => {
  it('runs the full pipeline: a correction fed back, config-only values applied', async () => {
    const client = await clientReplaying('tool-use-bad-args', 'tool-use-corrected', 'end-turn');
    const toolhost = createAnthropicToolhost(registryOf(), {
      toolPolicy: {},
      grantedToolIds: ['echo'],
      toolConfig: { echo: { prefix: '> ' } },
    });
    const turn = toolhost.startRunnerTurn();

    const final = await client.beta.messages.toolRunner(
      {
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        max_iterations: 16,
        messages: [{ role: 'user', content: 'Echo hello' }],
        tools: turn.tools,
      },
      { signal: turn.signal },
    );

    expect(final.stop_reason).toBe('end_turn');
    expect(sent(0).tools?.map((tool) => tool.name)).toEqual(['echo']);
    expect(JSON.stringify(sent(0).tools)).not.toContain('prefix');
    expect(lastToolResults(1)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01D7FLrfh4GYq7yT1ULmeyWH',
        content: 'tool echo args invalid: text (invalid_type), txt (unrecognized_key)',
        is_error: true,
      },
    ]);
    expect(lastToolResults(2)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01Q3ZnJ8kUeYb2a7mWcX4vTd', content: '> hello' },
    ]);
  });

  it('ends the turn on a fatal call: no further model call, every tool_use answered', async () => {
    const client = await clientReplaying('tool-use-echo-save-echo', 'end-turn');
    const confirm = vi.fn<ConfirmActionHook>(async () => ({ outcome: 'reject' }));
    const toolhost = createAnthropicToolhost(registryOf(), {
      toolPolicy: {},
      grantedToolIds: ['echo', 'save'],
      approval: { confirm },
    });
    const turn = toolhost.startRunnerTurn();
    const runner = client.beta.messages.toolRunner(
      {
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Echo, then save' }],
        tools: turn.tools,
      },
      { signal: turn.signal },
    );

    const error = await runner.runUntilDone().catch((thrown: unknown) => thrown);

    expect(turn.turnError(error)).toBeInstanceOf(ToolDeniedByUserError);
    expect(server?.requests).toHaveLength(1);
    expect(confirm).toHaveBeenCalledTimes(1);
    const history = runner.params.messages;
    expect(unansweredToolUse({ messages: history })).toBeUndefined();
    expect(history.at(-1)?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01Ea1pWm4kRt8vNc2xLq6bYs', content: 'first' },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01Sa2qXn5lSu9wOd3yMr7cZt',
        content: 'tool save denied by approval: user_rejected; the turn ended',
        is_error: true,
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01Eb3rYo6mTv0xPe4zNs8dAu',
        content: 'not run: an earlier call in this response ended the turn',
        is_error: true,
      },
    ]);
  });

  it('runs a response’s calls one at a time, in the model’s order', async () => {
    const client = await clientReplaying('tool-use-echo-save-echo', 'end-turn');
    const order: string[] = [];
    const slowRegistry: LoopRegistry = {
      ...registryOf(),
      dispatch: async (call, ctx) => {
        order.push(`start ${call.id}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        order.push(`end ${call.id}`);
        return registryOf().dispatch(call, ctx);
      },
    };
    const turn = createAnthropicToolhost(slowRegistry, {
      toolPolicy: {},
      grantedToolIds: ['echo', 'save'],
    }).startRunnerTurn();

    await client.beta.messages.toolRunner(
      {
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Echo, then save' }],
        tools: turn.tools,
      },
      { signal: turn.signal },
    );

    const ids = ['toolu_01Ea1pWm4kRt8vNc2xLq6bYs', 'toolu_01Sa2qXn5lSu9wOd3yMr7cZt'];
    expect(order.slice(0, 4)).toEqual([
      `start ${ids[0]}`,
      `end ${ids[0]}`,
      `start ${ids[1]}`,
      `end ${ids[1]}`,
    ]);
  });

  it('runs nothing when the runner was not given the turn’s signal', async () => {
    const client = await clientReplaying('tool-use-save', 'end-turn');
    const confirm = vi.fn<ConfirmActionHook>(async () => ({ outcome: 'approve' }));
    const turn = createAnthropicToolhost(registryOf(), {
      toolPolicy: {},
      grantedToolIds: ['save'],
      approval: { confirm },
    }).startRunnerTurn();

    await client.beta.messages.toolRunner({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Save it' }],
      tools: turn.tools,
    });

    expect(confirm).not.toHaveBeenCalled();
    expect(lastToolResults(1)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01Fb6yNp3rTq8wKx2mZc5vLs',
        content: 'not run: the tool runner was not given this turn’s signal',
        is_error: true,
      },
    ]);
  });
});
