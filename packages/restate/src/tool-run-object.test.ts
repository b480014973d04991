import { connect } from '@restatedev/restate-sdk-clients';
import { createSqliteEffectJournal } from '@toolhost/node/journal';
import { afterEach, describe, expect, it } from 'vitest';

import { resolveApproval } from './resolve-approval.js';
import { countLines, effectCall, writeEffectScript } from './test-support/effect-script.js';
import { startFleet, type Fleet, type LogEntry } from './test-support/fleet-harness.js';

// Real Restate server from npm, real worker processes (SIGKILLed by process group), a real Node
// host with the sandbox, a shared SQLite journal. The effect log counts what really ran.

const write = (id: string, line: string) => ({
  id,
  name: 'write_file',
  args: { path: 'effects.log', content: `${line}\n`, append: true },
});
const noticeFor =
  (toolCallId: string) =>
  (entry: LogEntry): boolean =>
    entry.event === 'notice' &&
    (entry['notice'] as { readonly toolCallId?: string }).toolCallId === toolCallId;
const approvalIdOf = (entry: LogEntry): string =>
  (entry['notice'] as { readonly approvalId: string }).approvalId;

describe('createToolRunObject on a real Restate server', { timeout: 120_000 }, () => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it('resumes a run whose worker died waiting for approval: A is not re-run, B runs once', async () => {
    fleet = await startFleet();
    const worker = await fleet.startWorker({ approvals: true });
    const ingress = connect({ url: fleet.server.ingressUrl });
    const run = await fleet.startRun('run-replay', [[write('a', 'A')], [write('b', 'B')]]);

    const noticeA = await fleet.waitForLog(noticeFor('a'));
    expect(noticeA['notice']).toMatchObject({
      runId: 'run-replay',
      toolId: 'write_file',
      action: 'fs_write',
      preview: { path: 'effects.log' },
    });
    await resolveApproval(ingress, approvalIdOf(noticeA), { outcome: 'approve' });
    const noticeB = await fleet.waitForLog(noticeFor('b'));
    expect(await fleet.readWorkspace('effects.log')).toBe('A\n');

    await worker.kill();
    await fleet.startWorker({ approvals: true });
    await resolveApproval(ingress, approvalIdOf(noticeB), { outcome: 'approve' });
    const outcome = await fleet.outcome(run);

    expect(outcome).toMatchObject({ ok: true, body: { text: 'done after 2 turns', turns: 3 } });
    expect(await fleet.readWorkspace('effects.log')).toBe('A\nB\n');
    // Each model turn was asked once: the restarted worker replayed turns 0 and 1 from Restate.
    const turns = (await fleet.log()).filter((entry) => entry.event === 'model');
    expect(turns.map((entry) => entry['turn'])).toEqual([0, 1, 2]);
  });

  it('refuses a side effect whose worker died inside its host call as effect_unresolved, never re-run', async () => {
    fleet = await startFleet();
    await writeEffectScript(fleet.workspace);
    const effect = effectCall('b', 'B', 60);
    const worker = await fleet.startWorker({ allowedCommands: [effect.allowed] });
    const run = await fleet.startRun('run-crash', [[effect.call]]);
    await waitForContent(fleet, 'effects.log', 'B\n');

    await worker.kill();
    await fleet.startWorker({ allowedCommands: [effect.allowed] });
    const outcome = await fleet.outcome(run);

    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome.body)).toContain('effect_unresolved');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await fleet.readWorkspace('effects.log')).toBe('B\n');
  });

  it('a rerun after the operator resolved its unresolved claim replays every finished turn and effect, and asks the model only for the rest', async () => {
    fleet = await startFleet();
    await writeEffectScript(fleet.workspace);
    const effect = effectCall('b', 'B', 60);
    // A real model answers with new call ids whenever it is asked: stable keys alone replay nothing.
    const options = { allowedCommands: [effect.allowed], randomCallIds: true };
    const script = [[write('a', 'A')], [effect.call], [write('c', 'C')]];
    const worker = await fleet.startWorker(options);
    const first = await fleet.startRun('run-rerun', script);
    await waitForContent(fleet, 'effects.log', 'A\nB\n');

    await worker.kill();
    await fleet.startWorker(options);
    const failed = await fleet.outcome(first);
    expect(failed.ok).toBe(false);
    expect(JSON.stringify(failed.body)).toContain('effect_unresolved');

    // The operator's `toolhost journal resolve <run> <call> --as done`, through the same API.
    const journal = await createSqliteEffectJournal({ file: fleet.journalFile });
    try {
      const unresolved = await journal.listUnresolved({ runId: 'run-rerun' });
      expect(unresolved.map((claim) => claim.toolId)).toEqual(['run_command']);
      expect(unresolved[0]?.callKey).toMatch(/^1\.b-/);
      expect(await journal.resolve('run-rerun', unresolved[0]?.callKey ?? '', 'done')).toBe(
        'resolved',
      );
    } finally {
      await journal.close();
    }
    const outcome = await fleet.outcome(await fleet.startRun('run-rerun', script));

    expect(outcome).toMatchObject({ ok: true, body: { text: 'done after 3 turns', turns: 4 } });
    // A ran once and was replayed, B is the operator's, C ran once: nothing repeated.
    expect(await fleet.readWorkspace('effects.log')).toBe('A\nB\nC\n');
    // Turns 0 and 1 finished before the failure and were never asked again.
    const turns = (await fleet.log()).filter((entry) => entry.event === 'model');
    expect(turns.map((entry) => entry['turn'])).toEqual([0, 1, 2, 3]);

    // Sent once more, the finished run answers from its record; another prompt is refused.
    const again = await fleet.outcome(await fleet.startRun('run-rerun', script));
    expect(again).toMatchObject({ ok: true, body: { text: 'done after 3 turns', turns: 4 } });
    const other = await fleet.outcome(await fleet.startRun('run-rerun', [[write('d', 'D')]]));
    expect(other).toMatchObject({ ok: false, status: 409 });
    expect(JSON.stringify(other.body)).toContain('another input');
    expect(await fleet.readWorkspace('effects.log')).toBe('A\nB\nC\n');
    expect((await fleet.log()).filter((entry) => entry.event === 'model')).toHaveLength(4);
  });

  it('rejects a call whose approval timed out as a refusal nobody made; nothing runs', async () => {
    fleet = await startFleet();
    await fleet.startWorker({ approvals: true, approvalTimeoutMs: 300 });
    const run = await fleet.startRun('run-timeout', [[write('a', 'A')]]);

    const outcome = await fleet.outcome(run);

    expect(outcome).toMatchObject({ ok: false });
    expect(JSON.stringify(outcome.body)).toContain('denied by approval: approval_timeout');
    expect(JSON.stringify(outcome.body)).not.toContain('user_rejected');
    expect(await fleet.readWorkspace('effects.log')).toBe('');
  });

  it('a rejection from the resolver reaches the run as a denial', async () => {
    fleet = await startFleet();
    await fleet.startWorker({ approvals: true });
    const run = await fleet.startRun('run-reject', [[write('a', 'A')]]);
    const notice = await fleet.waitForLog(noticeFor('a'));

    await resolveApproval(connect({ url: fleet.server.ingressUrl }), approvalIdOf(notice), {
      outcome: 'reject',
      reason: 'not today',
    });
    const outcome = await fleet.outcome(run);

    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome.body)).toContain('denied by approval: user_rejected');
    expect(await fleet.readWorkspace('effects.log')).toBe('');
  });

  it('a cancelled invocation cancels the running tool', async () => {
    fleet = await startFleet();
    await writeEffectScript(fleet.workspace);
    const effect = effectCall('c', 'C', 3);
    await fleet.startWorker({ allowedCommands: [effect.allowed] });
    const run = await fleet.startRun('run-cancel', [[effect.call]]);
    await waitForContent(fleet, 'effects.log', 'C\n');

    await fleet.cancel(run);
    const outcome = await fleet.outcome(run);

    expect(outcome).toMatchObject({ ok: false, status: 409 });
    // The sleep was killed with the call: its `-end` line never comes.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await fleet.readWorkspace('effects.log')).toBe('C\n');
  });

  it('a fleet of two workers behind one endpoint: a killed worker’s runs finish on the other, every effect at most once', async () => {
    fleet = await startFleet();
    await writeEffectScript(fleet.workspace);
    const runs = Array.from({ length: 6 }, (_, run) =>
      Array.from({ length: 4 }, (_, step) => effectCall(`c${step}`, `r${run}s${step}`, 0.2)),
    );
    const workers = await fleet.startWorker({
      workers: 2,
      allowedCommands: runs.flat().map((effect) => effect.allowed),
    });
    const invocations = await Promise.all(
      runs.map((steps, run) =>
        fleet!.startRun(
          `fleet-${run}`,
          steps.map((step) => [step.call]),
        ),
      ),
    );
    // Kill the worker that served the most model turns, once some work is under way.
    const entries = await waitForModelTurns(fleet, 6);
    const busiest = busiestPid(entries, workers.workerPids);
    workers.killWorker(busiest);
    const outcomes = await Promise.all(invocations.map((id) => fleet!.outcome(id)));

    const counts = countLines(await fleet.readWorkspace('effects.log'));
    for (const [line, count] of counts) expect({ line, count }).toEqual({ line, count: 1 });
    outcomes.forEach((outcome, run) => {
      if (outcome.ok) {
        for (let step = 0; step < 4; step += 1) expect(counts.get(`r${run}s${step}`)).toBe(1);
      } else {
        expect(JSON.stringify(outcome.body)).toContain('effect_unresolved');
      }
    });
    // The survivor took over: turns after the kill were all served by the other worker.
    const survivor = workers.workerPids.find((pid) => pid !== busiest);
    const after = (await fleet.log()).slice(entries.length);
    expect(after.filter((entry) => entry.event === 'model').every((e) => e.pid === survivor)).toBe(
      true,
    );
    expect(outcomes.filter((outcome) => outcome.ok).length).toBeGreaterThan(0);
  });
});

async function waitForContent(fleet: Fleet, name: string, content: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await fleet.readWorkspace(name)) !== content) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function waitForModelTurns(fleet: Fleet, count: number): Promise<readonly LogEntry[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const entries = await fleet.log();
    if (entries.filter((entry) => entry.event === 'model').length >= count) return entries;
    if (Date.now() > deadline) throw new Error('timed out waiting for model turns');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function busiestPid(entries: readonly LogEntry[], pids: readonly number[]): number {
  const served = (pid: number): number =>
    entries.filter((entry) => entry.event === 'model' && entry.pid === pid).length;
  return [...pids].sort((a, b) => served(b) - served(a))[0] ?? -1;
}
