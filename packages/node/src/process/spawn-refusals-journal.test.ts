import { chmod, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  type ToolCall,
  type ToolDispatchContext,
} from '@toolhost/core';
import { isRefusedBeforeEffect } from '@toolhost/core/host';
import { createMemoryEffectJournal, type EffectJournal } from '@toolhost/core/journal';

import { createSqliteEffectJournal } from '../journal/create-sqlite-effect-journal.js';
import { createProcessArm, type ProcessArm } from './create-process-arm.js';

// Issue 37: what the process arm refuses before `spawn` discards a journaled call's claim (the
// call may run once the cause is gone); once the child started, a failure keeps it.

const SCRIPT = './work.sh';
const CALL: ToolCall = { id: 'call-run-1', name: 'run_command', args: { command: SCRIPT } };

describe('a journaled run_command and its refusals', () => {
  let root = '';
  let arm: ProcessArm;
  const pids: number[] = [];

  beforeEach(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-spawn-journal-')));
    arm = createProcessArm({ root, sandbox: 'off', timeoutMs: 20_000 });
  });
  afterEach(async () => {
    for (const pid of pids.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone: the arm stopped it.
      }
    }
    await rm(root, { recursive: true, force: true });
  });

  const contextFor = (store: EffectJournal, signal?: AbortSignal): ToolDispatchContext => ({
    nodeId: 'spawn-journal-test',
    grantedToolIds: new Set(['run_command']),
    config: {},
    toolPolicy: { allowedCommands: [SCRIPT] },
    fsScope: 'sandboxed',
    gateApproved: false,
    journal: { store, runId: 'run-spawn' },
    ...(signal === undefined ? {} : { signal }),
  });
  const dispatch = (store: EffectJournal, signal?: AbortSignal) =>
    createToolRegistry({ tools: BUILTIN_TOOLS, host: { process: arm } })
      .dispatch(CALL, contextFor(store, signal))
      .catch((error: unknown) => error);

  const log = () => readFile(path.join(root, 'ran.log'), 'utf8').catch(() => '');

  async function writeScript(body: string): Promise<void> {
    await writeFile(path.join(root, 'work.sh'), `#!/bin/sh\n${body}\n`);
    await chmod(path.join(root, 'work.sh'), 0o755);
  }

  it.each(['memory', 'sqlite'] as const)(
    'a command refused before spawn (%s journal) discards: it runs once it exists, once',
    async (kind) => {
      const sqlite =
        kind === 'sqlite'
          ? await createSqliteEffectJournal({ file: path.join(root, 'effects.db') })
          : undefined;
      const store = sqlite ?? createMemoryEffectJournal();
      try {
        const refused = await dispatch(store);

        expect(refused).toMatchObject({ code: 'tool_denied', reason: 'command_not_found' });
        expect(isRefusedBeforeEffect(refused)).toBe(true);

        await writeScript('echo ran >> ran.log');
        const ran = await dispatch(store);
        const replayed = await dispatch(store);

        expect(ran).toMatchObject({ journal: { status: 'settled' } });
        expect(replayed).toMatchObject({ journal: { status: 'replayed' } });
        expect(await log()).toBe('ran\n');
      } finally {
        await sqlite?.close();
      }
    },
  );

  it('marks a refused environment, judged before anything else', async () => {
    const error = await arm
      .spawn('sh', ['-c', 'true'], { LD_PRELOAD: '/tmp/x.so' }, {})
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ reason: 'env_not_allowed' });
    expect(isRefusedBeforeEffect(error)).toBe(true);
  });

  it('keeps the claim of a child cancelled after it started: the rerun is effect_unresolved', async () => {
    await writeScript('echo $$ > pid\necho ran >> ran.log\nexec sleep 30');
    const store = createMemoryEffectJournal();
    const controller = new AbortController();
    const pending = dispatch(store, controller.signal);
    // Cancel once the child has had its effect.
    for (let waited = 0; (await log()) === '' && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pid = Number((await readFile(path.join(root, 'pid'), 'utf8')).trim());
    if (Number.isInteger(pid) && pid > 0) pids.push(pid);
    controller.abort();

    const cancelled = await pending;
    const again = await dispatch(store);

    expect(cancelled).toMatchObject({ code: 'cancelled' });
    expect(isRefusedBeforeEffect(cancelled)).toBe(false);
    expect(again).toMatchObject({ reason: 'effect_unresolved' });
    expect(await log()).toBe('ran\n');
  });
});
