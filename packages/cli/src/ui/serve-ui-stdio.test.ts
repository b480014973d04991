import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../test/workspace.js';
import { REPO_ROOT } from '../mcp/test-support/serve-client.js';
import { loopbackRequest } from './test-support/loopback-request.js';
import type { UiEvent } from './ui-event.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin.ts');

describe('toolhost serve --ui over stdio', () => {
  let ws: Workspace;
  let client: Client;
  let url: URL;
  let pid: number | null = null;
  beforeAll(async () => {
    ws = await createWorkspace();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=source',
        '--import',
        'tsx',
        BIN,
        'serve',
        '--ui',
        '--root',
        ws.root,
        ...ws.stateFlags,
      ],
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    const printed = new Promise<URL>((resolve) => {
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const found = /toolhost ui: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/u.exec(stderr)?.[1];
        if (found !== undefined) resolve(new URL(found));
      });
    });
    client = new Client({ name: 'stdio-tower-test', version: '1.0.0' });
    await client.connect(transport);
    pid = transport.pid;
    url = await printed;
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    // The SDK ends its child on close; a straggler is stopped by its PID.
    if (pid !== null) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await ws.cleanup();
  });

  it('shows a call of the stdio client on its own listener', async () => {
    await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });

    const answer = await loopbackRequest(Number(url.port), `/api/timeline${url.search}`);
    const { events } = JSON.parse(answer.body) as { events: UiEvent[] };

    expect(events.map((event) => `${event.toolId}:${event.step}`)).toEqual([
      'read_file:called',
      'read_file:result',
    ]);
  });
});
