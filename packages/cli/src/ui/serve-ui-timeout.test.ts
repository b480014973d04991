import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../test/workspace.js';
import { startServeUi, type ServeUiProcess } from './test-support/serve-ui-process.js';

describe('toolhost serve --ui --ui-approval-timeout', () => {
  let ws: Workspace;
  let serve: ServeUiProcess;
  let client: Client;
  beforeAll(async () => {
    ws = await createWorkspace();
    serve = await startServeUi([
      '--root',
      ws.root,
      ...ws.stateFlags,
      '--tools',
      'write_file',
      '--mode',
      'ask',
      '--ui-approval-timeout',
      '0.5',
    ]);
    client = new Client({ name: 'timeout-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.mcpUrl)));
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await serve?.stop();
    await ws.cleanup();
  });

  it('denies a write nobody answered on the page once the timeout passes', async () => {
    const started = Date.now();

    const result = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'late.txt', content: 'x' },
    })) as CallToolResult;

    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/timed out/u);
    expect(JSON.stringify(result.content)).not.toMatch(/user_rejected/u);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(existsSync(path.join(ws.root, 'late.txt'))).toBe(false);
  });
});
