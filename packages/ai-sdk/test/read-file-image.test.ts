import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { BUILTIN_TOOLS, createToolRegistry } from '@toolhost/core';
import { createNodeToolHost, type NodeToolHostHandle } from '@toolhost/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolhostStopWhen, toolhostTools, toolhostTurnError } from '../src/index.js';
import { callsTool, says, toolOutputs } from '../src/test-support/mock-steps.js';

// A real 1×1 PNG: binary (its header holds NUL bytes), so the host stores it as media.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type ContentPart = { type: string; text?: string; data?: string; mediaType?: string };

let base = '';
let handle: NodeToolHostHandle | undefined;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolhost-ai-sdk-image-'));
  await mkdir(join(base, 'app'));
  await writeFile(join(base, 'app/diagram.png'), png);
  handle = await createNodeToolHost({ root: join(base, 'app'), stateDir: join(base, 'state') });
});
afterEach(async () => {
  await handle?.close();
  handle = undefined;
  await rm(base, { recursive: true, force: true });
});

describe('read_file on an image, through the real Node host', () => {
  it('shows the model the pixels in the tool result, inside the nonce fence', async () => {
    if (handle === undefined) throw new Error('no host');
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
    const tools = toolhostTools(registry, {
      grantedToolIds: ['read_file'],
      toolPolicy: {},
      randomNonce: () => 'n0nce',
    });
    const model = new MockLanguageModelV3({
      doGenerate: [callsTool('read_file', { path: 'diagram.png' }), says('a white pixel')],
    });

    const result = await generateText({
      model,
      tools,
      prompt: 'What is in diagram.png?',
      stopWhen: toolhostStopWhen(tools),
    });

    expect(toolhostTurnError(tools, result.steps)).toBeUndefined();
    expect(result.text).toBe('a white pixel');
    const [output] = toolOutputs(model.doGenerateCalls[1]?.prompt) as {
      type: string;
      value: ContentPart[];
    }[];
    expect(output?.type).toBe('content');
    // ai@6 passes `image-data` on; ai@7 hands a v3 model the same bytes as `file-data`.
    const media = output?.value.filter((part) => /^(image|file)-data$/.test(part.type)) ?? [];
    expect(media).toEqual([
      expect.objectContaining({ data: png.toString('base64'), mediaType: 'image/png' }),
    ]);
    const texts = output?.value.flatMap((part) => (part.text === undefined ? [] : [part.text]));
    expect(texts?.[1]).toMatch(/^<reported-content nonce="n0nce">/);
    expect(texts?.at(-1)).toMatch(/^<\/reported-content nonce="n0nce">/);
    // The bytes travel once, as the image part: never as base64 text beside it.
    expect(texts?.join('\n')).not.toContain(png.toString('base64').slice(0, 24));
  });
});
