import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, symlink, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRepositorySuspects } from './new-repository-suspects.js';

describe('newRepositorySuspects', () => {
  let base = '';
  let gitDir = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-newrepo-')));
    execFileSync('git', ['init', '-q', path.join(base, 'repo')]);
    gitDir = path.join(base, 'repo', '.git');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('finds nothing in what git init and git remote add write', async () => {
    execFileSync('git', [
      '-C',
      path.join(base, 'repo'),
      'remote',
      'add',
      'origin',
      'https://example.test/r.git',
    ]);

    expect(newRepositorySuspects(gitDir)).toEqual([]);
  });

  it.each([
    ['a program-valued key', '[core]\n\tfsmonitor = touch /tmp/x\n'],
    ['an include', '[include]\n\tpath = /elsewhere/config\n'],
    ['a helper URL', '[remote "evil"]\n\turl = ext::sh -c touch% /tmp/x\n'],
    ['worktree config switched on', '[extensions]\n\tworktreeConfig = true\n'],
    ['a syntax git rejects', '[core\n'],
  ])('suspects a config with %s', async (_case, text) => {
    await appendFile(path.join(gitDir, 'config'), text);

    expect(newRepositorySuspects(gitDir)).toEqual(['config']);
  });

  it('suspects a symlinked config and a hook that is not a sample', async () => {
    await rm(path.join(gitDir, 'config'));
    await symlink('/etc/hostname', path.join(gitDir, 'config'));
    await writeFile(path.join(gitDir, 'hooks', 'post-checkout'), '#!/bin/sh\n', { mode: 0o755 });

    expect(newRepositorySuspects(gitDir)).toEqual(['config', 'hooks']);
  });
});
