import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError } from '../cli-error.js';
import { resolveCallJournal, type CallJournalFlags } from './call-journal-options.js';

describe('resolveCallJournal', () => {
  let base = '';
  let root = '';
  let stateDir = '';
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-journal-flags-')));
    root = path.join(base, 'app');
    stateDir = path.join(base, 'state');
    await mkdir(root);
    await symlink(root, path.join(base, 'into-root'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const resolve = (flags: CallJournalFlags) => resolveCallJournal(flags, { root, stateDir }, base);

  it('is off without --run-id', () => {
    expect(resolve({})).toBeUndefined();
  });

  it('defaults the journal to <stateDir>/journal.sqlite, whose directory it may create', () => {
    expect(resolve({ runId: 'run_1', callId: 'toolu_01A' })).toEqual({
      file: path.join(stateDir, 'journal.sqlite'),
      createDirectory: true,
      runId: 'run_1',
      callId: 'toolu_01A',
    });
  });

  it('takes --journal relative to the cwd, and never creates its directory', () => {
    expect(resolve({ runId: 'r', callId: 'c', journal: 'j.sqlite' })).toMatchObject({
      file: path.join(base, 'j.sqlite'),
      createDirectory: false,
    });
  });

  it.each<[string, CallJournalFlags, RegExp]>([
    ['--journal alone', { journal: '/tmp/j.sqlite' }, /--journal needs --run-id/],
    ['--call-id alone', { callId: 'c' }, /--call-id needs --run-id/],
    ['--run-id alone', { runId: 'r' }, /--run-id needs --call-id/],
    ['a run id with a slash', { runId: '../r', callId: 'c' }, /--run-id takes/],
    ['a run id past 64', { runId: 'r'.repeat(65), callId: 'c' }, /--run-id takes/],
    ['a call id with a space', { runId: 'r', callId: 'a b' }, /--call-id takes/],
    ['an empty call id', { runId: 'r', callId: '' }, /--call-id takes/],
    ['a journal in the root', { runId: 'r', callId: 'c', journal: 'app/j.sqlite' }, /outside/],
    [
      'a root file whose name starts with ..',
      { runId: 'r', callId: 'c', journal: 'app/..j' },
      /outside/,
    ],
    [
      'a journal reached through a symlink into the root',
      { runId: 'r', callId: 'c', journal: 'into-root/j.sqlite' },
      /outside/,
    ],
  ])('refuses %s as a usage error', (_case, flags, message) => {
    expect(() => resolve(flags)).toThrow(CliUsageError);
    expect(() => resolve(flags)).toThrow(message);
  });
});
