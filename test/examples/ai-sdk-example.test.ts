import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runAgent } from '../../examples/ai-sdk.js';
import { callsTool, says, toolOutputs } from '../../packages/ai-sdk/src/test-support/mock-steps.js';

const git = promisify(execFile);

// The example's seam: `runAgent` takes the model, so the SDK's own mock drives the real agent.
describe('examples/ai-sdk.ts', () => {
  let base = '';
  let root = '';
  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-example-'));
    root = path.join(base, 'repo');
    // The host's state lives under HOME: keep it in the temp dir, not the real home.
    vi.stubEnv('HOME', base);
    await git('git', ['init', '-q', root]);
    await writeFile(path.join(root, 'main.ts'), 'export {};\n');
    const author = ['-c', 'user.name=Test', '-c', 'user.email=test@example.com'];
    await git('git', [...author, 'add', 'main.ts'], { cwd: root });
    await git('git', [...author, 'commit', '-q', '-m', 'add the entry point'], { cwd: root });
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(base, { recursive: true, force: true });
  });

  it('lists the workspace, runs the allowed git command and returns the final text', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTool('list_directory', { path: '.' }),
        callsTool('run_command', { command: 'git', args: ['log', '--oneline', '-5'] }),
        says('One commit added main.ts, the entry point.'),
      ],
    });

    const text = await runAgent({ model, root });

    expect(text).toBe('One commit added main.ts, the entry point.');
    const [, afterList, afterLog] = model.doGenerateCalls.map(({ prompt }) =>
      JSON.stringify(toolOutputs(prompt)),
    );
    expect(afterList).toContain('main.ts');
    expect(afterLog).toContain('add the entry point');
  });
});
