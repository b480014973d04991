import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, createToolRegistry, type ToolDispatchContext } from '@toolhost/core';

import { createNodeToolHost } from '../../create-node-tool-host.js';
import { createPostgresEffectJournal } from './create-postgres-effect-journal.js';
import type { PostgresEffectJournal } from './postgres-effect-journal-types.js';
import { hasPostgres, startPostgres, type PostgresServer } from './test-support/start-postgres.js';

// Two workers (each its own Node host and its own journal pool) on one Postgres journal: the
// second is handed the same call of the same run, as after the first crashed before reporting.
describe.skipIf(!hasPostgres())('a journaled dispatch on the Postgres journal', () => {
  let server: PostgresServer;
  let base = '';
  beforeAll(async () => {
    server = await startPostgres();
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-pg-dispatch-')));
  });
  afterAll(async () => {
    await server?.stop();
    await rm(base, { recursive: true, force: true });
  });

  it('replays a settled write_file on another worker instead of writing again', async () => {
    const root = path.join(base, 'app');
    await mkdir(root);
    const key = randomBytes(32).toString('hex');
    const call = {
      id: 'call-write-1',
      name: 'write_file',
      args: { path: 'note.txt', content: 'v1' },
    };
    const worker = async (name: string) => {
      const handle = await createNodeToolHost({ root, stateDir: path.join(base, name) });
      const journal = await createPostgresEffectJournal({
        connectionString: server.connectionString,
        key,
      });
      const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
      return { handle, journal, registry, ctx: contextFor(journal) };
    };

    const first = await worker('first');
    const ran = await first.registry.dispatch(call, first.ctx);
    // Someone edits the file after the write: a re-run would clobber it back to v1.
    await writeFile(path.join(root, 'note.txt'), 'edited later');
    const second = await worker('second');
    const replayed = await second.registry.dispatch(call, second.ctx);
    const changed = await second.registry
      .dispatch({ ...call, args: { ...call.args, content: 'v2' } }, second.ctx)
      .catch((error: unknown) => error);
    for (const { handle, journal } of [first, second]) {
      await handle.close();
      await journal.close();
    }

    expect(ran.journal).toMatchObject({ status: 'settled' });
    expect(replayed.journal).toMatchObject({ status: 'replayed' });
    expect(replayed.toolResult).toEqual(ran.toolResult);
    expect(replayed.output).toEqual(ran.output);
    expect(await readFile(path.join(root, 'note.txt'), 'utf8')).toBe('edited later');
    // The same call id with other content is never taken for the recorded write.
    expect(changed).toMatchObject({ reason: 'journal_identity_mismatch' });
  });
});

function contextFor(store: PostgresEffectJournal): ToolDispatchContext {
  return {
    nodeId: 'pg-dispatch-test',
    grantedToolIds: new Set(['write_file']),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    journal: { store, runId: 'run-pg-dispatch' },
  };
}
