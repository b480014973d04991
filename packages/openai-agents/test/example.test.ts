import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  recorded,
  startReplayServer,
  type ReplayServer,
} from '../../anthropic/src/test-support/replay-server.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const recordings = new URL('../src/test-support/', import.meta.url);

// Runs the example, answering its approval prompt with `answer`.
function runExample(root: string, origin: string, home: string, answer: string) {
  return new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'examples/openai-agents.ts', root],
      {
        cwd: repo,
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: home,
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: `${origin}/v1`,
          OPENAI_AGENTS_DISABLE_TRACING: '1',
        },
      },
      (error, stdout) =>
        error !== null && error.code === undefined
          ? reject(error)
          : resolve({ code: child.exitCode, stdout }),
    );
    child.stdin?.end(`${answer}\n`);
  });
}

describe('examples/openai-agents.ts', () => {
  let base = '';
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('writes the file only after the approval prompt is answered yes', async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-example-'));
    await mkdir(join(base, 'app'));
    server = await startReplayServer([
      await recorded('call-write-todo', recordings),
      await recorded('final-message', recordings),
    ]);

    const { stdout } = await runExample(join(base, 'app'), server.origin, base, 'y');

    expect(stdout).toContain('Allow write_file (fs_write TODO.md)? [y/N]');
    expect(stdout).not.toContain('ship the adapters');
    expect(stdout).toContain('Done.');
    expect(await readFile(join(base, 'app/TODO.md'), 'utf8')).toBe('- ship the adapters\n');
  });

  it('never writes the file when the prompt is answered no', async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-example-'));
    await mkdir(join(base, 'app'));
    server = await startReplayServer([
      await recorded('call-write-todo', recordings),
      await recorded('final-message', recordings),
    ]);

    await runExample(join(base, 'app'), server.origin, base, 'n');

    await expect(readFile(join(base, 'app/TODO.md'), 'utf8')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(server.requests).toHaveLength(2);
  });
});
