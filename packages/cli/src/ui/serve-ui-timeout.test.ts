import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../test/workspace.js';
import {
  startServeUiWithClients,
  writeAskFlags,
  type ServeUiWithClients,
} from './test-support/serve-ui-with-clients.js';

describe('toolhost serve --ui --ui-approval-timeout', () => {
  let ws: Workspace;
  let served: ServeUiWithClients;
  let client: Client;
  beforeAll(async () => {
    ws = await createWorkspace();
    served = await startServeUiWithClients(
      [...writeAskFlags(ws), '--ui-approval-timeout', '0.5'],
      ['timeout-test'],
    );
    [client] = served.clients as [Client];
  }, 30_000);
  afterAll(async () => {
    await served?.close();
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
