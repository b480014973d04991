import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  OpenAIResponsesModel,
  run,
  setTracingDisabled,
  type FunctionTool,
} from '@openai/agents';
import {
  AdapterOptionsError,
  BUILTIN_TOOLS,
  createToolRegistry,
  ToolArgsInvalidError,
  ToolDeniedByUserError,
  type ToolRegistry,
} from '@toolhost/core';
import { createNodeToolHost, type NodeToolHostHandle } from '@toolhost/node';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  echoTool,
  imageTool,
  linesTool,
  retainedTool,
} from '../../core/src/loop/test-support/sample-tools.js';
import {
  recorded,
  startReplayServer,
  type ReplayServer,
} from '../../anthropic/src/test-support/replay-server.js';
import { toolhostAgentTools, toolhostRunError } from './index.js';

setTracingDisabled(true);

type ResponsesBody = {
  tools: { name: string; parameters: unknown; strict: boolean }[];
  input: unknown[];
};

let base = '';
let server: ReplayServer | undefined;
let handle: NodeToolHostHandle | undefined;
let registry: ToolRegistry;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolhost-agents-'));
  await mkdir(join(base, 'app'));
  handle = await createNodeToolHost({ root: join(base, 'app'), stateDir: join(base, 'state') });
  registry = createToolRegistry({
    tools: [...BUILTIN_TOOLS, echoTool, imageTool, linesTool],
    host: handle.host,
  });
});
afterEach(async () => {
  await server?.close();
  await handle?.close();
  await rm(base, { recursive: true, force: true });
  server = undefined;
});

async function agentReplaying(tools: FunctionTool[], ...names: string[]): Promise<Agent> {
  const here = new URL('./test-support/', import.meta.url);
  server = await startReplayServer(await Promise.all(names.map((name) => recorded(name, here))));
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
  return new Agent({
    name: 'assistant',
    instructions: 'Use the tools.',
    tools,
    model: new OpenAIResponsesModel(client, 'gpt-4.1'),
  });
}

function body(index: number): ResponsesBody {
  return server?.requests[index]?.body as ResponsesBody;
}

function outputsIn(index: number): unknown[] {
  return body(index).input.filter(
    (item) => (item as { type?: string }).type === 'function_call_output',
  );
}

describe('toolhostAgentTools in a replayed Agents run', () => {
  it('feeds a bad-args call back, then runs the corrected one', async () => {
    const tools = toolhostAgentTools(registry, { toolPolicy: {}, grantedToolIds: ['echo'] });
    const agent = await agentReplaying(
      tools,
      'call-echo-bad-args',
      'call-echo-corrected',
      'final-message',
    );

    const result = await run(agent, 'Echo hello');

    expect(result.finalOutput).toBe('Done.');
    expect(server?.requests[0]?.url).toBe('/v1/responses');
    expect(body(0).tools.map((tool) => [tool.name, tool.strict])).toEqual([['echo', true]]);
    expect(JSON.stringify(body(0).tools)).not.toContain('prefix');
    expect(outputsIn(1)).toMatchObject([
      {
        call_id: 'call_Xq3LwYb8RfT2nVp6',
        output: expect.stringContaining('tool echo args invalid: '),
      },
    ]);
    expect(outputsIn(2).at(-1)).toMatchObject({
      call_id: 'call_Mv7KpZc2HsQ9wJx4',
      output: 'hello',
    });
  });

  it('returns a structured result as the text bounding measured: small fields, then raw lines', async () => {
    const tools = toolhostAgentTools(registry, { toolPolicy: {}, grantedToolIds: ['lines'] });
    const agent = await agentReplaying(tools, 'call-lines', 'final-message');

    await run(agent, 'Print two lines');

    expect(outputsIn(1)).toMatchObject([
      {
        call_id: 'call_Ln4TbQ8sWd2Yk7Rv',
        output: '{\n  "exitCode": 0\n}\n===== stdout =====\nline 0\nline 1\n',
      },
    ]);
  });

  it('rejects the run with the typed error once the correction budget is spent', async () => {
    const tools = toolhostAgentTools(registry, {
      toolPolicy: {},
      grantedToolIds: ['echo'],
      maxCorrections: 2,
    });
    // Three responses, three call ids: the SDK (0.20) never re-runs a call id it completed.
    const bad = 'call-echo-bad-args';
    const agent = await agentReplaying(tools, bad, `${bad}-2`, `${bad}-3`, 'final-message');

    const error = await run(agent, 'Echo hello').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(toolhostRunError(error)).toBeInstanceOf(ToolArgsInvalidError);
    expect(server?.requests).toHaveLength(3);
  });

  it('returns media in the function output, fenced with a fresh nonce', async () => {
    const tools = toolhostAgentTools(registry, {
      toolPolicy: {},
      grantedToolIds: ['image'],
      randomNonce: () => 'n0nce',
    });
    const agent = await agentReplaying(tools, 'call-image', 'final-message');

    await run(agent, 'Show the diagram');

    const [output] = outputsIn(1) as { output: { type: string; text?: string }[] }[];
    expect(output?.output.map((item) => item.type)).toEqual([
      'input_text',
      'input_text',
      'input_image',
      'input_text',
    ]);
    expect(output?.output[1]?.text).toMatch(/^<reported-content nonce="n0nce">/);
  });

  it('interrupts a governed call and runs it on approve', async () => {
    const tools = toolhostAgentTools(registry, {
      toolPolicy: {},
      grantedToolIds: ['write_file'],
      approval: 'sdk',
    });
    const agent = await agentReplaying(tools, 'call-write-file', 'final-message');
    const first = await run(agent, 'Write the todo');
    expect(first.interruptions.map((item) => item.name)).toEqual(['write_file']);
    await expect(readFile(join(base, 'app/notes/todo.txt'), 'utf8')).rejects.toMatchObject({
      code: 'ENOENT',
    });

    for (const item of first.interruptions) first.state.approve(item);
    const second = await run(agent, first.state);

    expect(second.finalOutput).toBe('Done.');
    expect(await readFile(join(base, 'app/notes/todo.txt'), 'utf8')).toBe('buy milk\n');
    expect(outputsIn(1).at(-1)).toMatchObject({
      output: expect.stringContaining('"bytesWritten":9'),
    });
  });

  it('never runs a governed call the human rejected', async () => {
    const tools = toolhostAgentTools(registry, {
      toolPolicy: {},
      grantedToolIds: ['write_file'],
      approval: 'sdk',
    });
    const agent = await agentReplaying(tools, 'call-write-file', 'final-message');
    const first = await run(agent, 'Write the todo');

    for (const item of first.interruptions) first.state.reject(item);
    await run(agent, first.state);

    await expect(readFile(join(base, 'app/notes/todo.txt'), 'utf8')).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('ends the run with the typed error when toolhost approval rejects', async () => {
    const tools = toolhostAgentTools(registry, {
      toolPolicy: {},
      grantedToolIds: ['write_file'],
      approval: { confirm: async () => ({ outcome: 'reject' }) },
    });
    const agent = await agentReplaying(tools, 'call-write-file', 'final-message');

    const error = await run(agent, 'Write the todo').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(toolhostRunError(error)).toBeInstanceOf(ToolDeniedByUserError);
    expect(server?.requests).toHaveLength(1);
  });
});

describe('toolhostAgentTools with the runner execution authority', () => {
  const retaining = createToolRegistry({ tools: [retainedTool], host: {} });

  it('requires the grant at construction: registering a tool grants nothing', () => {
    const options = { toolPolicy: {} } as Parameters<typeof toolhostAgentTools>[1];

    expect(() => toolhostAgentTools(retaining, options)).toThrow(AdapterOptionsError);
  });

  it('refuses at construction a grant whose host arm is missing, naming the arm', () => {
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: {} });
    const options = { grantedToolIds: ['run_command'], toolPolicy: {} };

    expect(() => toolhostAgentTools(registry, options)).toThrow(
      expect.objectContaining({
        reason: 'host_arm_missing',
        toolId: 'run_command',
        arm: 'process',
      }),
    );
  });

  it('puts hostCallOptions and beforeDispatch on each dispatch', async () => {
    const seen: string[] = [];
    const tools = toolhostAgentTools(retaining, {
      toolPolicy: {},
      grantedToolIds: ['retained'],
      hostCallOptions: { retainWork: (factory) => (seen.push('retainWork'), factory()) },
      beforeDispatch: (toolId) => void seen.push(`admit ${toolId}`),
    });
    const agent = await agentReplaying(tools, 'call-retained', 'final-message');

    await run(agent, 'Do the work');

    expect(seen).toEqual(['admit retained', 'retainWork']);
    expect(outputsIn(1)).toMatchObject([{ call_id: 'call_Rt5WmQ2xVb8Nk3Lp', output: 'done' }]);
  });

  it('ends the run on a retention refusal with the fixed marker, never fed back', async () => {
    const tools = toolhostAgentTools(retaining, {
      toolPolicy: {},
      grantedToolIds: ['retained'],
      recoverToolFailures: true,
      hostCallOptions: { retainWork: () => Promise.reject(new Error('runner departed')) },
    });
    const agent = await agentReplaying(tools, 'call-retained', 'final-message');

    const error = await run(agent, 'Do the work').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(toolhostRunError(error)).toMatchObject({
      code: 'tool_failed',
      retryable: false,
      message: 'tool retained failed: host_retention_refused',
    });
    expect(server?.requests).toHaveLength(1);
  });
});
