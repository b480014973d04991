import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeToolHost } from '../create-node-tool-host.js';
import { fixtureServerDeclaration } from './test-support/fixture-server-declaration.js';

describe('createNodeToolHost with mcp servers', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-mcp-host-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('wires host.mcp and returns the discovered tools', async () => {
    const handle = await createNodeToolHost({
      root: base,
      stateDir: join(base, 'state'),
      mcp: { servers: { fx: fixtureServerDeclaration({ tools: ['echo'] }) } },
    });
    try {
      const ids = handle.mcpTools.map((tool) => tool.id);
      const echoed = await handle.host.mcp?.call({
        server: 'fx',
        tool: 'echo',
        args: { text: 'via host' },
      });

      expect(ids).toEqual(['mcp_fx_echo']);
      expect(echoed).toBe('via host');
      expect(handle.mcpReport?.servers).toEqual([
        { name: 'fx', status: 'connected', toolCount: 1 },
      ]);
    } finally {
      await handle.close();
    }
  });

  it('has no mcp arm and no tools without declared servers', async () => {
    const handle = await createNodeToolHost({ root: base, stateDir: join(base, 'state') });

    expect(handle.host.mcp).toBeUndefined();
    expect(handle.mcpTools).toEqual([]);
    await handle.close();
  });
});
