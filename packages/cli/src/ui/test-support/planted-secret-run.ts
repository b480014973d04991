import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  type ToolDispatchContext,
  type ToolRegistry,
} from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node/host';
import { UiEventHub } from '../ui-event-hub.js';
import { UiSessionTable } from '../ui-session-table.js';
import { withUiEvents } from '../with-ui-events.js';

/** A vendor-token shape the redactor knows, built at run time so no scanner flags this file. */
export const PLANTED_SECRET = ['ghp', 'abcdefghijklmnopqrstuvwxyz0123456789'].join('_');

/** A real registry on a real Node host, wrapped for the page, whose calls carry the secret. */
export interface PlantedSecretRun {
  readonly hub: UiEventHub;
  readonly sessions: UiSessionTable;
  readonly registry: ToolRegistry;
  readonly context: ToolDispatchContext;
  close(): Promise<void>;
}

/** Session `s1` of a fresh hub: a write of the secret (approved), a read that spills it, a miss. */
export async function runPlantedSecretCalls(): Promise<PlantedSecretRun> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-ui-')));
  const root = path.join(base, 'root');
  const stateDir = path.join(base, 'state');
  await mkdir(root);
  const handle = await createNodeToolHost({ root, stateDir, runId: 'ui-run' });
  const hub = new UiEventHub();
  const sessions = new UiSessionTable();
  const session = sessions.open('s1', path.join(stateDir, 'spill'));
  const registry = withUiEvents(createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host }), {
    hub,
    sessionId: 's1',
    recordSpill: (spill) => session.recordSpill(spill),
  });
  const context: ToolDispatchContext = {
    nodeId: 'ui-test',
    grantedToolIds: new Set(['read_file', 'write_file']),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    // Small enough that the read below is cut and spilled.
    limits: { maxBytes: 2048, maxLines: 20 },
    approval: {
      confirm: async () => ({ outcome: 'reject', reason: `no: ${PLANTED_SECRET} is mine` }),
    },
  };
  const approving: ToolDispatchContext = {
    ...context,
    approval: { confirm: async () => ({ outcome: 'approve' }) },
  };
  const content = `token=${PLANTED_SECRET}\n${'line of filler text\n'.repeat(400)}`;
  await registry.dispatch(
    {
      id: '1',
      name: 'write_file',
      args: { path: `notes/${PLANTED_SECRET}.txt`, content, createDirs: true },
    },
    approving,
  );
  await registry.dispatch(
    { id: '2', name: 'read_file', args: { path: `notes/${PLANTED_SECRET}.txt` } },
    context,
  );
  // Denied at the gate, with the secret in the person's reason.
  await registry
    .dispatch(
      { id: '3', name: 'write_file', args: { path: 'other.txt', content: PLANTED_SECRET } },
      context,
    )
    .catch(() => undefined);
  // Failed in the host, the secret in the missing path.
  await registry
    .dispatch({ id: '4', name: 'read_file', args: { path: `gone/${PLANTED_SECRET}` } }, context)
    .catch(() => undefined);
  return {
    hub,
    sessions,
    registry,
    context,
    close: async () => {
      await handle.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}
