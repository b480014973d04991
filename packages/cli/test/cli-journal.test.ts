import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectIdempotencyKey, OPERATOR_RESOLVED_RESULT } from '@toolhost/core/journal';
import { createSqliteEffectJournal, SqliteDriverMissingError } from '@toolhost/node/journal';
import {
  approveConfig,
  binArgv,
  cliEnv,
  runCli,
  type CliRun,
  type RunCliOptions,
} from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

// The CLI children run on this test's own Node: the journal tests need better-sqlite3 to load
// there (it is built for one Node ABI). Where it does not, they are reported skipped, not passed.
const DRIVER_LOADS = await driverLoads();
const withDriver = it.runIf(DRIVER_LOADS);
// Preloaded into a child: better-sqlite3 resolves as a package that is not installed.
const WITHOUT_DRIVER = fileURLToPath(new URL('./without-better-sqlite3.mjs', import.meta.url));

// The real binary, twice, against one journal file: what a crashed or resumed agent would do.
describe('toolhost call --run-id --call-id: the effect journal', () => {
  let ws: Workspace;
  let journal = '';
  beforeEach(async () => {
    ws = await createWorkspace();
    journal = join(ws.stateDir, 'journal.sqlite');
    await ws.write(
      'toolhost.config.json',
      JSON.stringify({
        tools: ['write_file', 'run_command', 'read_file'],
        mode: 'auto',
        // Exact entries: a glob never allows a shell. The scripts are the effects under test.
        allowedCommands: ['sh effect.sh', 'sh slow.sh'],
      }),
    );
    await ws.write(
      'effect.sh',
      'printf "%s\\n" "$TOOLHOST_IDEMPOTENCY_KEY" >> effects.txt; echo ran\n',
    );
    // The first run starts its effect and hangs (to be killed); any later run finishes at once.
    await ws.write(
      'slow.sh',
      'if [ -e started.txt ]; then echo again >> started.txt; else echo started >> started.txt; sleep 30; fi\n',
    );
    await approveConfig(ws);
  });
  afterEach(() => ws.cleanup());

  const cli = (args: readonly string[], options: Pick<RunCliOptions, 'onSpawn'> = {}) =>
    runCli([...args, ...ws.stateFlags], { cwd: ws.root, ...options });
  const call = (
    tool: string,
    args: unknown,
    ids: readonly string[],
    extra: readonly string[] = [],
  ) => cli(['call', tool, JSON.stringify(args), ...ids, '--json', ...extra]);
  const json = (run: CliRun) => JSON.parse(run.stdout) as Record<string, unknown>;
  const append = { path: 'log.txt', content: 'one line\n', append: true };
  const shell = (script: string) => ({ command: 'sh', args: [script] });

  withDriver(
    'appends once: the second run with the same ids replays the recorded result',
    async () => {
      const ids = ['--run-id', 'run-1', '--call-id', 'call-1'];

      const first = await call('write_file', append, ids);
      const second = await call('write_file', append, ids);

      expect(first.code).toBe(0);
      expect(second.code).toBe(0);
      expect(await readFile(join(ws.root, 'log.txt'), 'utf8')).toBe('one line\n');
      expect(json(first)).toMatchObject({
        runId: 'run-1',
        callId: 'call-1',
        journal: { status: 'settled' },
      });
      expect(json(second)).toMatchObject({
        ok: true,
        exitCode: 0,
        runId: 'run-1',
        callId: 'call-1',
        journal: { status: 'replayed', operatorResolved: false, outputDropped: false },
      });
      expect(json(second)['result']).toEqual(json(first)['result']);
      // Another call id is another call: it runs.
      await call('write_file', append, ['--run-id', 'run-1', '--call-id', 'call-2']);
      expect(await readFile(join(ws.root, 'log.txt'), 'utf8')).toBe('one line\none line\n');
    },
  );

  withDriver('creates the default journal in the state dir, owner-only', async () => {
    await call('write_file', append, ['--run-id', 'r', '--call-id', 'c']);

    expect((await stat(journal)).mode & 0o777).toBe(0o600);
  });

  withDriver('says so on stderr when a human-mode call is a replay', async () => {
    const ids = ['--run-id', 'r', '--call-id', 'c'];
    await cli(['call', 'write_file', JSON.stringify(append), ...ids]);

    const replay = await cli(['call', 'write_file', JSON.stringify(append), ...ids]);

    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('bytesWritten');
    expect(replay.stderr).toContain(
      'replayed from the effect journal; the effect did not run again',
    );
  });

  withDriver(
    'runs a command once, inside the sandbox, with its idempotency key in the environment',
    async () => {
      const ids = ['--run-id', 'run-cmd', '--call-id', 'toolu_01'];
      const script = shell('effect.sh');

      const first = await call('run_command', script, ids);
      const second = await call('run_command', script, ids);

      expect([first.code, second.code]).toEqual([0, 0]);
      const key = await effectIdempotencyKey('run-cmd', 'toolu_01');
      expect(await readFile(join(ws.root, 'effects.txt'), 'utf8')).toBe(`${key}\n`);
      expect(json(second)).toMatchObject({ journal: { status: 'replayed' } });
      expect(json(second)['result']).toEqual(json(first)['result']);
    },
  );

  withDriver(
    'refuses a reused call id with other arguments (journal_identity_mismatch), running nothing',
    async () => {
      const ids = ['--run-id', 'r', '--call-id', 'c'];
      await call('write_file', append, ids);

      const changed = await call('write_file', { ...append, content: 'other\n' }, ids);

      expect(changed.code).toBe(1);
      expect(json(changed)).toMatchObject({
        ok: false,
        error: {
          code: 'tool_failed',
          reason: 'journal_identity_mismatch',
          hint: expect.stringContaining('--call-id'),
        },
      });
      expect(await readFile(join(ws.root, 'log.txt'), 'utf8')).toBe('one line\n');
    },
  );

  withDriver(
    'a call killed mid-effect leaves an unresolved claim: listed, refused (exit 6), resolved as done',
    async () => {
      const ids = ['--run-id', 'run-k', '--call-id', 'call-k'];
      const script = shell('slow.sh');
      const marker = join(ws.root, 'started.txt');

      await crashMidEffect(['call', 'run_command', JSON.stringify(script), ...ids], marker);

      const listed = await cli(['journal', 'list', '--json']);
      expect(listed.code).toBe(0);
      expect(json(listed)).toEqual({
        ok: true,
        unresolved: [
          {
            runId: 'run-k',
            callKey: 'call-k',
            toolId: 'run_command',
            claimId: expect.any(String),
            preparedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        ],
      });
      const human = await cli(['journal', 'list', '--run', 'run-k']);
      expect(human.stdout).toMatch(/^run-k {2}call-k {2}run_command {2}prepared \d{4}-/);
      expect((await cli(['journal', 'list', '--run', 'other', '--json'])).stdout).toContain(
        '"unresolved": []',
      );

      const refused = await call('run_command', script, ids);
      expect(refused.code).toBe(6);
      expect(json(refused)).toMatchObject({
        ok: false,
        exitCode: 6,
        runId: 'run-k',
        callId: 'call-k',
        error: {
          code: 'tool_failed',
          name: 'EffectJournalError',
          reason: 'effect_unresolved',
          hint: expect.stringContaining('toolhost journal resolve run-k call-k --as done'),
        },
      });
      const humanRefusal = await cli(['call', 'run_command', JSON.stringify(script), ...ids]);
      expect(humanRefusal.code).toBe(6);
      expect(humanRefusal.stderr).toContain('effect_unresolved');
      expect(humanRefusal.stderr).toContain('toolhost journal resolve run-k call-k --as done');
      expect(await readFile(marker, 'utf8')).toBe('started\n');

      const resolved = await cli([
        'journal',
        'resolve',
        'run-k',
        'call-k',
        '--as',
        'done',
        '--json',
      ]);
      expect(resolved.code).toBe(0);
      expect(json(resolved)).toEqual({
        ok: true,
        runId: 'run-k',
        callId: 'call-k',
        as: 'done',
        outcome: 'resolved',
      });

      const replayed = await call('run_command', script, ids);
      expect(replayed.code).toBe(0);
      expect(json(replayed)).toMatchObject({
        journal: { status: 'replayed', operatorResolved: true },
        result: OPERATOR_RESOLVED_RESULT,
      });
      expect(await readFile(marker, 'utf8')).toBe('started\n');
      expect(json(await cli(['journal', 'list', '--json']))).toEqual({ ok: true, unresolved: [] });
      // Nothing left to resolve: a usage error, exit 2.
      const again = await cli(['journal', 'resolve', 'run-k', 'call-k', '--as', 'done', '--json']);
      expect(again.code).toBe(2);
      expect(json(again)).toMatchObject({ ok: false, exitCode: 2, error: { code: 'usage' } });
    },
    60_000,
  );

  withDriver(
    'resolve --as failed lets the next call run',
    async () => {
      const ids = ['--run-id', 'run-f', '--call-id', 'call-f'];
      const script = shell('slow.sh');
      const marker = join(ws.root, 'started.txt');
      await crashMidEffect(['call', 'run_command', JSON.stringify(script), ...ids], marker);
      expect((await call('run_command', script, ids)).code).toBe(6);

      const resolved = await cli(['journal', 'resolve', 'run-f', 'call-f', '--as', 'failed']);
      expect(resolved.code).toBe(0);
      expect(resolved.stdout).toContain('resolved as failed');

      const ran = await call('run_command', script, ids);
      expect(ran.code).toBe(0);
      expect(json(ran)).toMatchObject({ journal: { status: 'settled' } });
      expect(await readFile(marker, 'utf8')).toBe('started\nagain\n');
    },
    60_000,
  );

  withDriver(
    'gc removes settled records older than the age, never an unresolved claim',
    async () => {
      // 40 days ago: one settled record and one claim that never settled.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() - 40 * 86_400_000);
      try {
        const store = await createSqliteEffectJournal({ file: journal });
        const key = { runId: 'old', callKey: 'settled', toolId: 'write_file', argsDigest: 'd' };
        const { claimId } = await store.prepare(key);
        await store.settle(claimId, { kind: 'test' });
        await store.prepare({ ...key, callKey: 'unresolved' });
        await store.close();
      } finally {
        vi.useRealTimers();
      }
      const ids = ['--run-id', 'fresh', '--call-id', 'c'];
      await call('write_file', append, ids);

      const swept = await cli(['journal', 'gc', '--older-than', '30d', '--json']);
      expect(swept.code).toBe(0);
      expect(json(swept)).toEqual({ ok: true, removed: 1 });
      const human = await cli(['journal', 'gc', '--older-than', '12h']);
      expect(human.stdout).toBe('removed 0 settled records\n');
      expect(json(await cli(['journal', 'list', '--json']))).toMatchObject({
        unresolved: [{ runId: 'old', callKey: 'unresolved' }],
      });
      // The fresh record is still there: its call still replays.
      expect(json(await call('write_file', append, ids))).toMatchObject({
        journal: { status: 'replayed' },
      });
    },
  );

  it.each(['30', '1w', '0d'])('refuses --older-than %s as a usage error (exit 2)', async (age) => {
    const run = await cli(['journal', 'gc', '--older-than', age, '--json']);

    expect(run.code).toBe(2);
    expect(json(run)).toMatchObject({ ok: false, exitCode: 2, error: { code: 'usage' } });
  });

  it('operator commands on a journal that does not exist answer without creating it', async () => {
    const missing = join(ws.stateDir, 'none.sqlite');

    expect(json(await cli(['journal', 'list', '--journal', missing, '--json']))).toEqual({
      ok: true,
      unresolved: [],
    });
    expect(
      json(await cli(['journal', 'gc', '--older-than', '1d', '--journal', missing, '--json'])),
    ).toEqual({
      ok: true,
      removed: 0,
    });
    expect(
      (await cli(['journal', 'resolve', 'r', 'c', '--as', 'done', '--journal', missing])).code,
    ).toBe(2);
    expect(existsSync(missing)).toBe(false);
  });

  withDriver(
    'takes an explicit --journal file for both call and the operator commands',
    async () => {
      const file = join(ws.stateDir, '..', 'elsewhere.sqlite');
      const ids = ['--run-id', 'r', '--call-id', 'c', '--journal', file];
      await seedUnresolved(file, { runId: 'r', callKey: 'x', toolId: 'write_file' });

      await call('write_file', append, ids);
      const replay = await call('write_file', append, ids);

      expect(json(replay)).toMatchObject({ journal: { status: 'replayed' } });
      expect(existsSync(journal)).toBe(false);
      expect(json(await cli(['journal', 'list', '--journal', file, '--json']))).toMatchObject({
        unresolved: [{ runId: 'r', callKey: 'x' }],
      });
    },
  );

  it.each([
    ['--run-id without --call-id', ['--run-id', 'r']],
    ['--call-id without --run-id', ['--call-id', 'c']],
    ['--journal without --run-id', ['--journal', '/tmp/x.sqlite']],
    ['a run id the host cannot name a directory by', ['--run-id', '../r', '--call-id', 'c']],
    ['a call id with spaces', ['--run-id', 'r', '--call-id', 'a b']],
    [
      'a journal inside the workspace root',
      ['--run-id', 'r', '--call-id', 'c', '--journal', 'j.sqlite'],
    ],
  ])('refuses %s as a usage error before anything runs', async (_case, flags) => {
    const run = await call('write_file', append, flags);

    expect(run.code).toBe(2);
    expect(json(run)).toMatchObject({ ok: false, error: { code: 'usage' } });
    expect(existsSync(join(ws.root, 'log.txt'))).toBe(false);
    expect(existsSync(join(ws.root, 'j.sqlite'))).toBe(false);
  });

  it('without better-sqlite3 installed exits 5 (unavailable) naming the fix', async () => {
    const run = await runWithoutDriver([
      'call',
      'write_file',
      JSON.stringify(append),
      '--run-id',
      'r',
      '--call-id',
      'c',
      '--json',
    ]);

    expect(run.code).toBe(5);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      exitCode: 5,
      error: {
        code: 'sqlite_driver_missing',
        message: expect.stringContaining('npm install better-sqlite3@12'),
      },
    });
    expect(existsSync(join(ws.root, 'log.txt'))).toBe(false);
    const human = await runWithoutDriver(['journal', 'list', '--journal', journal]);
    // No journal file there: nothing to open, so no driver needed.
    expect(human.code).toBe(0);
  });

  withDriver('without the driver, an operator command on an existing journal exits 5', async () => {
    await seedUnresolved(journal, { runId: 'r', callKey: 'c', toolId: 'write_file' });

    const run = await runWithoutDriver(['journal', 'list']);

    expect(run.code).toBe(5);
    expect(run.stderr).toContain('needs the optional dependency better-sqlite3');
  });

  // The effect has begun (the marker is written) when the CLI is SIGKILLed: a crash mid-effect.
  async function crashMidEffect(args: readonly string[], marker: string): Promise<void> {
    const crashed = await cli(args, {
      onSpawn: (child) =>
        killWhen(
          () => existsSync(marker),
          () => child.kill('SIGKILL'),
        ),
    });
    expect(crashed.signal).toBe('SIGKILL');
  }

  function runWithoutDriver(args: readonly string[]): Promise<CliRun> {
    return new Promise((resolve, reject) => {
      const argv = ['--import', WITHOUT_DRIVER, ...binArgv([...args, ...ws.stateFlags])];
      const child = spawn(process.execPath, argv, { cwd: ws.root, env: cliEnv() });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
      child.stdin.end();
    });
  }
});

async function driverLoads(): Promise<boolean> {
  const directory = await mkdtemp(join(tmpdir(), 'toolhost-driver-probe-'));
  try {
    await (await createSqliteEffectJournal({ file: join(directory, 'probe.sqlite') })).close();
    return true;
  } catch (error) {
    if (error instanceof SqliteDriverMissingError) return false;
    throw error;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

async function seedUnresolved(
  file: string,
  key: { readonly runId: string; readonly callKey: string; readonly toolId: string },
): Promise<void> {
  const store = await createSqliteEffectJournal({ file });
  try {
    await store.prepare({ ...key, argsDigest: 'seeded' });
  } finally {
    await store.close();
  }
}

// Polls until `ready` holds, then acts once; gives up (and lets the run finish) after 15 s.
function killWhen(ready: () => boolean, act: () => void): void {
  const started = Date.now();
  const timer = setInterval(() => {
    if (ready()) {
      clearInterval(timer);
      act();
    } else if (Date.now() - started > 15_000) {
      clearInterval(timer);
    }
  }, 20);
}
