import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  recorded,
  startReplayServer,
  type ReplayServer,
} from '../src/test-support/replay-server.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));

describe('examples/anthropic-messages.ts', () => {
  let base = '';
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    await rm(base, { recursive: true, force: true });
  });

  it('runs the loop end to end against a replayed Messages API', async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-example-'));
    await mkdir(join(base, 'app'));
    await writeFile(join(base, 'app/README.md'), '# demo\n');
    server = await startReplayServer([
      await recorded('tool-use-list-directory'),
      await recorded('end-turn-summary'),
    ]);

    const { stdout } = await run(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        'examples/anthropic-messages.ts',
        join(base, 'app'),
      ],
      {
        cwd: repo,
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: base,
          ANTHROPIC_API_KEY: 'sk-ant-test',
          ANTHROPIC_BASE_URL: server.origin,
        },
      },
    );

    expect(stdout).toContain('The project holds one README.');
    const second = server.requests[1]?.body as { messages: { content: unknown }[] };
    expect(JSON.stringify(second.messages.at(-1)?.content)).toContain('README.md');
  });
});
