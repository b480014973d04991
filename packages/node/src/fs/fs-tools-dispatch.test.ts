import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, unwrapUntrusted } from '@toolhost/core';
import { boundForModel, toModelText } from '@toolhost/core/bound';
import { listDirectoryTool, readFileTool } from '@toolhost/core/tools';
import type { ToolDispatchContext, ToolDispatchOutcome, ToolRegistry } from '@toolhost/core';
import { MAX_LIST_ENTRIES } from './list-directory.js';
import { createSandbox } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

// The fs tools as a model meets them: through the registry, bounded by the default limits.
let box: Sandbox;
let registry: ToolRegistry;
const ORIGINAL_LINES = 20_000;
const context: ToolDispatchContext = {
  nodeId: 'node',
  grantedToolIds: new Set(['list_directory', 'read_file']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
};

beforeAll(async () => {
  box = await createSandbox({}, async ({ root }) => {
    await mkdir(path.join(root, 'src'));
    for (let index = 0; index < MAX_LIST_ENTRIES; index += 1)
      await writeFile(path.join(root, 'src', `module-${String(index).padStart(4, '0')}.ts`), 'x');
    const lines = Array.from({ length: ORIGINAL_LINES }, (_, index) => `line ${index}\n`);
    await writeFile(path.join(root, 'big.txt'), lines.join(''));
  });
  registry = createToolRegistry({ tools: [listDirectoryTool, readFileTool], host: box.host });
});
afterAll(() => box.close());

let calls = 0;
function call(name: string, args: Record<string, unknown>): Promise<ToolDispatchOutcome> {
  calls += 1;
  return registry.dispatch({ id: `c${calls}`, name, args }, context);
}

function modelText(outcome: ToolDispatchOutcome): string {
  return toModelText(unwrapUntrusted(outcome.toolResult).result);
}

function visibleModules(text: string): number {
  return new Set(text.match(/module-\d{4}\.ts/g)).size;
}

describe('list_directory through the registry', () => {
  it('shows the model a whole 1000-entry page within the default bound, ~3x what JSON showed', async () => {
    const outcome = await call('list_directory', { path: 'src' });
    // The control: the same entries as the JSON result the model was shown before.
    const asJson = await boundForModel(outcome.output);

    const shown = visibleModules(modelText(outcome));
    const shownAsJson = visibleModules(toModelText(asJson.result));

    expect(outcome.truncated).toBe(false);
    expect(shown).toBe(MAX_LIST_ENTRIES);
    expect(shownAsJson).toBeLessThan(400);
    expect(asJson.truncated).toBe(true);
  });

  it('keeps the spec shape whole in the output for workflow state', async () => {
    const outcome = await call('list_directory', { path: 'src' });

    expect(outcome.output).toMatchObject({ total: MAX_LIST_ENTRIES, totalExact: true });
    expect((outcome.output as { entries: unknown[] }).entries[0]).toEqual({
      name: 'src/module-0000.ts',
      type: 'file',
      sizeBytes: 1,
      lastModified: expect.any(String),
    });
  });
});

describe('read_file windows', () => {
  it('says the total line count and whether more lines follow', async () => {
    const outcome = await call('read_file', { path: 'big.txt', offset: 10, limit: 2 });

    expect(outcome.output).toMatchObject({
      content: 'line 10\nline 11\n',
      totalLines: ORIGINAL_LINES,
      more: true,
    });
    expect(modelText(outcome)).toContain(`"totalLines": ${ORIGINAL_LINES}`);
  });

  it('pages a spilled read by the original line numbers, the spill header not counted', async () => {
    const whole = await call('read_file', { path: 'big.txt' });
    const ref = whole.spill?.ref ?? '';
    expect((await readFile(ref, 'utf8')).startsWith('{\n')).toBe(true);

    const first = await call('read_file', { path: ref, offset: 0, limit: 2 });
    const later = await call('read_file', { path: ref, offset: 12_345, limit: 1 });
    const last = await call('read_file', { path: ref, offset: ORIGINAL_LINES - 1, limit: 5 });

    expect(first.output).toMatchObject({ content: 'line 0\nline 1\n', more: true });
    expect(later.output).toMatchObject({ content: 'line 12345\n', totalLines: ORIGINAL_LINES });
    expect(last.output).toMatchObject({ content: `line ${ORIGINAL_LINES - 1}\n`, more: false });
  });

  it('counts a workspace file that looks like a spill from its first line', async () => {
    await writeFile(path.join(box.root, 'lookalike.txt'), '{\n}\n===== content =====\nbody\n');

    const outcome = await call('read_file', { path: 'lookalike.txt', offset: 0, limit: 1 });

    expect(outcome.output).toMatchObject({ content: '{\n', totalLines: 4 });
  });
});
