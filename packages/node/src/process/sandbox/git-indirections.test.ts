import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  frozenIndirections,
  listGitIndirections,
  snapshotGitIndirections,
  snapshotRepositories,
} from './git-indirections.js';

describe('git indirections of a git dir', () => {
  let base = '';
  let gitDir = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-gitind-unit-')));
    gitDir = path.join(base, 'repo', '.git');
    await mkdir(path.join(gitDir, 'objects', 'info'), { recursive: true });
    await mkdir(path.join(gitDir, 'info'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('lists every indirection that exists, in linked worktrees too, and nothing else', async () => {
    await writeFile(path.join(gitDir, 'commondir'), '../..\n');
    await writeFile(path.join(gitDir, 'objects', 'info', 'alternates'), '/x\n');
    await writeFile(path.join(gitDir, 'objects', 'info', 'commit-graph'), '');
    await mkdir(path.join(gitDir, 'worktrees', 'wt'), { recursive: true });
    await writeFile(path.join(gitDir, 'worktrees', 'wt', 'gitdir'), '/w/.git\n');
    await writeFile(path.join(gitDir, 'worktrees', 'wt', 'HEAD'), 'ref: refs/heads/main\n');

    const names = [...listGitIndirections(gitDir).keys()].sort();

    expect(names).toEqual(['commondir', 'info', 'objects/info/alternates', 'worktrees/wt/gitdir']);
  });

  it('reports a symlinked directory on the way as itself and never enters it', async () => {
    const elsewhere = path.join(base, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(path.join(elsewhere, 'alternates'), '/x\n');
    await rm(path.join(gitDir, 'objects', 'info'), { recursive: true });
    await symlink(elsewhere, path.join(gitDir, 'objects', 'info'));

    const entries = listGitIndirections(gitDir);

    expect(entries.get('objects/info')).toMatchObject({ kind: 'symlink', onTheWay: true });
    expect(entries.has('objects/info/alternates')).toBe(false);
  });

  it('calls a symlink or a FIFO unsafe, and freezes only real files and directories', async () => {
    await symlink('/etc', path.join(gitDir, 'remotes'));
    execFileSync('mkfifo', [path.join(gitDir, 'commondir')]);
    await writeFile(path.join(gitDir, 'config.worktree'), '');

    const { snapshot, unsafe } = snapshotGitIndirections(gitDir);

    expect(unsafe.map((entry) => entry.name).sort()).toEqual(['commondir', 'remotes']);
    expect(
      frozenIndirections(snapshot)
        .map((frozen) => path.relative(gitDir, frozen))
        .sort(),
    ).toEqual(['config.worktree', 'info']);
  });

  it('refuses the spawn with a typed error naming no host path', async () => {
    await symlink(path.join(base, 'x'), path.join(gitDir, 'commondir'));

    const attempt = () => snapshotRepositories('run_command', [gitDir]);

    expect(attempt).toThrow(
      expect.objectContaining({ code: 'tool_denied', reason: 'symlink_refused' }),
    );
    expect(attempt).not.toThrow(base);
  });

  it('refuses a FIFO as containment_failed, naming only the repository-relative name', async () => {
    execFileSync('mkfifo', [path.join(gitDir, 'commondir')]);

    const attempt = () => snapshotRepositories('run_command', [gitDir]);

    expect(attempt).toThrow(
      expect.objectContaining({ code: 'tool_failed', reason: 'containment_failed' }),
    );
    expect(attempt).not.toThrow(base);
  });
});
