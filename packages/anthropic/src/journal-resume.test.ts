import Anthropic from '@anthropic-ai/sdk';
import { createToolRegistry, defineTool } from '@toolhost/core';
import { createMemoryEffectJournal } from '@toolhost/core/journal';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnthropicToolhost } from './create-anthropic-toolhost.js';
import { recorded, startReplayServer, type ReplayServer } from './test-support/replay-server.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createAnthropicToolhost with a journal', () => {
  it('replays a resumed conversation (same run, same tool_use ids) instead of repeating the write', async () => {
    // The recorded `tool-use-save` response, answered twice: a process that ran the call and
    // crashed before keeping the result, then the resumed one asking for the same call again.
    server = await startReplayServer([
      await recorded('tool-use-save'),
      await recorded('tool-use-save'),
    ]);
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.origin, maxRetries: 0 });
    const notes: string[] = [];
    const save = defineTool({
      id: 'save',
      description: 'Save a note',
      args: z.strictObject({ note: z.string() }),
      policy: { fsScoped: true, fsWrite: true, spawnsProcess: false, requiresGateApproval: false },
      dispatch: async ({ note }) => ({ saved: notes.push(note) }),
    });
    const registry = createToolRegistry({ tools: [save], host: {} });
    const journal = { store: createMemoryEffectJournal(), runId: 'run-1' };
    const turn = async () => {
      const toolhost = createAnthropicToolhost(registry, {
        toolPolicy: {},
        grantedToolIds: ['save'],
        journal,
      });
      const message = await client.messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        tools: toolhost.tools,
        messages: [{ role: 'user', content: 'Remember the milk' }],
      });
      return toolhost.startTurn().toolResults(message);
    };

    const first = await turn();
    const resumed = await turn();

    expect(notes).toEqual(['remember the milk']);
    expect(resumed).toEqual(first);
    expect(resumed?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01Fb6yNp3rTq8wKx2mZc5vLs',
        content: '{"saved":1}',
      },
    ]);
  });
});
