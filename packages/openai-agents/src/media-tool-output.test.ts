import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, OpenAIResponsesModel, run, setTracingDisabled } from '@openai/agents';
import { BUILTIN_TOOLS, createToolRegistry, type ToolRegistry } from '@toolhost/core';
import { createNodeToolHost, type NodeToolHostHandle } from '@toolhost/node';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  recorded,
  startReplayServer,
  type ReplayServer,
} from '../../anthropic/src/test-support/replay-server.js';
import { toolhostAgentTools } from './index.js';

setTracingDisabled(true);

// A real 1×1 PNG: binary (its header holds NUL bytes), so the host stores it as media.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type OutputItem = { type: string; text?: string; image_url?: string };

let base = '';
let handle: NodeToolHostHandle | undefined;
let server: ReplayServer | undefined;
let registry: ToolRegistry;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolhost-agents-image-'));
  await mkdir(join(base, 'app'));
  await writeFile(join(base, 'app/diagram.png'), png);
  handle = await createNodeToolHost({ root: join(base, 'app'), stateDir: join(base, 'state') });
  registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
});
afterEach(async () => {
  await server?.close();
  await handle?.close();
  await rm(base, { recursive: true, force: true });
  server = undefined;
});

async function readFileOutput(recording: string): Promise<OutputItem[]> {
  const here = new URL('./test-support/', import.meta.url);
  server = await startReplayServer([
    await recorded(recording, here),
    await recorded('final-message', here),
  ]);
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
  const agent = new Agent({
    name: 'assistant',
    instructions: 'Use the tools.',
    tools: toolhostAgentTools(registry, { grantedToolIds: ['read_file'], toolPolicy: {} }),
    model: new OpenAIResponsesModel(client, 'gpt-4.1'),
  });

  const result = await run(agent, 'What is in diagram.png?');

  expect(result.finalOutput).toBe('Done.');
  const input = (server.requests[1]?.body as { input: { type?: string; output?: unknown }[] })
    .input;
  const output = input.find((item) => item.type === 'function_call_output')?.output;
  if (!Array.isArray(output)) throw new Error('expected a structured function output');
  return output as OutputItem[];
}

describe('mediaToolOutput: a read_file through the real Node host', () => {
  it('delivers an image as its pixels, the SDK tool-output image, in the function output', async () => {
    const output = await readFileOutput('call-read-image');

    expect(output.map((item) => item.type)).toEqual([
      'input_text',
      'input_text',
      'input_image',
      'input_text',
    ]);
    expect(output[2]?.image_url).toBe(`data:image/png;base64,${png.toString('base64')}`);
  });

  it('leaves a binary no model views as a reference to its handle', async () => {
    await writeFile(join(base, 'app/blob.bin'), Buffer.from([0, 1, 2, 3]));

    const output = await readFileOutput('call-read-blob');

    expect(output.map((item) => item.type)).not.toContain('input_image');
    expect(output[2]?.text).toMatch(/^\[media media:\/\/sha256-[0-9a-f]{64} \(.+, 4 bytes\)\]$/);
  });
});
