import { describe, expect, it } from 'vitest';
import type { EffectKey } from './effect-journal.js';
import { createMemoryEffectJournal } from './memory-effect-journal.js';

const KEY: EffectKey = {
  runId: 'run-1',
  callKey: 'call-1',
  toolId: 'write_file',
  argsDigest: 'a1',
};

describe('createMemoryEffectJournal', () => {
  it('reads an unknown call as absent', async () => {
    const journal = createMemoryEffectJournal();

    const state = await journal.lookup(KEY);

    expect(state).toEqual({ kind: 'absent' });
  });

  it('reads a prepared claim back with its claim id', async () => {
    const journal = createMemoryEffectJournal();

    const { claimId } = await journal.prepare(KEY);

    expect(await journal.lookup(KEY)).toEqual({ kind: 'prepared', claimId });
  });

  it('rejects a second prepare of the same run and call, whatever its identity', async () => {
    const journal = createMemoryEffectJournal();
    await journal.prepare(KEY);

    const again = journal.prepare({ ...KEY, argsDigest: 'other' });

    await expect(again).rejects.toThrow('a claim for this call already exists');
  });

  it.each([
    ['another digest', { argsDigest: 'b2' }],
    ['another tool', { toolId: 'run_command' }],
  ])('reads the same run and call under %s as a mismatch', async (_case, change) => {
    const journal = createMemoryEffectJournal();
    await journal.prepare(KEY);

    const state = await journal.lookup({ ...KEY, ...change });

    expect(state).toEqual({ kind: 'mismatch' });
  });

  it('keeps runs and calls apart, even when their ids concatenate alike', async () => {
    const journal = createMemoryEffectJournal();
    await journal.prepare({ ...KEY, runId: 'ab', callKey: 'c' });

    const state = await journal.lookup({ ...KEY, runId: 'a', callKey: 'bc' });

    expect(state).toEqual({ kind: 'absent' });
  });

  it('settles a claim with a JSON copy of the record', async () => {
    const journal = createMemoryEffectJournal();
    const { claimId } = await journal.prepare(KEY);
    const record = { kind: 'dispatched', list: [1, 'two', null] };

    await journal.settle(claimId, record);
    record.list.push(4);

    expect(await journal.lookup(KEY)).toEqual({
      kind: 'settled',
      record: { kind: 'dispatched', list: [1, 'two', null] },
    });
  });

  it('refuses to settle twice, to settle an unknown claim or to store a non-JSON record', async () => {
    const journal = createMemoryEffectJournal();
    const { claimId } = await journal.prepare(KEY);
    const other = await journal.prepare({ ...KEY, callKey: 'call-2' });
    await journal.settle(claimId, { kind: 'dispatched' });

    await expect(journal.settle(claimId, { kind: 'dispatched' })).rejects.toThrow(
      'already settled',
    );
    await expect(journal.settle('nope', { kind: 'dispatched' })).rejects.toThrow('unknown');
    await expect(
      journal.settle(other.claimId, { at: new Date(0) } as never),
    ).rejects.toBeInstanceOf(TypeError);
  });

  it('discards a prepared claim, so the call reads absent and may be prepared again', async () => {
    const journal = createMemoryEffectJournal();
    const { claimId } = await journal.prepare(KEY);

    await journal.discard(claimId);

    expect(await journal.lookup(KEY)).toEqual({ kind: 'absent' });
    await expect(journal.prepare(KEY)).resolves.toMatchObject({ claimId: expect.any(String) });
  });

  it('never discards a settled record', async () => {
    const journal = createMemoryEffectJournal();
    const { claimId } = await journal.prepare(KEY);
    await journal.settle(claimId, { kind: 'dispatched' });

    await expect(journal.discard(claimId)).rejects.toThrow('already settled');
    expect(await journal.lookup(KEY)).toMatchObject({ kind: 'settled' });
  });

  it('lets exactly one of two racing prepares win', async () => {
    const journal = createMemoryEffectJournal();

    const results = await Promise.allSettled([journal.prepare(KEY), journal.prepare(KEY)]);

    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
  });
});
