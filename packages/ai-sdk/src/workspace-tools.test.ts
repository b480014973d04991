import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  ToolPolicyError,
  WORKSPACE_TOOLS,
} from '@toolhost/core';
import { createNodeToolHost, type NodeToolHostHandle } from '@toolhost/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { toolhostStopWhen, toolhostTools, toolhostTurnError } from './index.js';
import { callsTool, says } from './test-support/mock-steps.js';

// The workspace tools reach an SDK agent like any tool: granted by name, run on a real host.
describe('WORKSPACE_TOOLS through toolhostTools', () => {
  let base = '';
  let handle: NodeToolHostHandle | undefined;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-ai-ws-')));
    await writeFile(path.join(base, 'notes.txt'), 'alpha\nbeta\n');
    handle = await createNodeToolHost({ root: base, stateDir: path.join(base, '.state') });
  });
  afterEach(async () => {
    await handle?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('exposes only the granted workspace tools and runs an edit_file call', async () => {
    const registry = createToolRegistry({
      tools: [...BUILTIN_TOOLS, ...WORKSPACE_TOOLS],
      host: handle!.host,
    });
    const tools = toolhostTools(registry, {
      grantedToolIds: ['edit_file', 'search_files'],
      toolPolicy: {},
    });
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTool('edit_file', {
          path: 'notes.txt',
          edits: [{ oldText: 'beta', newText: 'gamma' }],
        }),
        says('done'),
      ],
    });

    const result = await generateText({
      model,
      tools,
      prompt: 'go',
      stopWhen: toolhostStopWhen(tools),
    });

    expect(Object.keys(tools).sort()).toEqual(['edit_file', 'search_files']);
    expect(result.text).toBe('done');
    expect(await readFile(path.join(base, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
  });

  it("never puts a write the host's floor refuses to the human (approval: 'sdk')", async () => {
    await mkdir(path.join(base, '.git', 'hooks'), { recursive: true });
    const registry = createToolRegistry({ tools: [...BUILTIN_TOOLS], host: handle!.host });
    const tools = toolhostTools(registry, {
      grantedToolIds: ['write_file'],
      toolPolicy: {},
      approval: 'sdk',
    });
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTool('write_file', { path: '.git/hooks/pre-commit', content: 'echo owned' }),
        says('never'),
      ],
    });

    const result = await generateText({
      model,
      tools,
      prompt: 'go',
      stopWhen: toolhostStopWhen(tools),
    });

    expect(result.content.filter((part) => part.type === 'tool-approval-request')).toEqual([]);
    expect(toolhostTurnError(tools, result.steps)).toMatchObject({ reason: 'protected_path' });
    expect(toolhostTurnError(tools, result.steps)).toBeInstanceOf(ToolPolicyError);
    await expect(readFile(path.join(base, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
  });
});
