import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotGitIndirections } from './git-indirections.js';
import {
  quarantineGitIndirections,
  type SandboxGitQuarantine,
} from './quarantine-git-indirections.js';

describe('quarantineGitIndirections', () => {
  let root = '';
  let gitDir = '';
  beforeEach(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-quarantine-')));
    gitDir = path.join(root, '.git');
    await mkdir(path.join(gitDir, 'objects', 'info'), { recursive: true });
    await mkdir(path.join(gitDir, 'worktrees'));
    await writeFile(path.join(gitDir, 'config.worktree'), '[user]\n\tname = kept\n');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const settle = (snapshot: ReturnType<typeof snapshotGitIndirections>['snapshot']) => {
    const seen: SandboxGitQuarantine[] = [];
    const events = quarantineGitIndirections({
      toolId: 'git_commit',
      snapshots: [snapshot],
      roots: [root],
      onQuarantine: (event) => seen.push(event),
    });
    return { events, seen };
  };

  it('moves what appeared into the quarantine and keeps what was there', async () => {
    const { snapshot } = snapshotGitIndirections(gitDir);
    await writeFile(path.join(gitDir, 'commondir'), '../evil\n');
    await writeFile(path.join(gitDir, 'objects', 'info', 'alternates'), '/elsewhere\n');

    const { events, seen } = settle(snapshot);

    expect(seen).toEqual(events);
    expect(
      events.map(({ name, change, repository, toolId }) => ({ name, change, repository, toolId })),
    ).toEqual([
      { name: 'commondir', change: 'appeared', repository: '.git', toolId: 'git_commit' },
      {
        name: 'objects/info/alternates',
        change: 'appeared',
        repository: '.git',
        toolId: 'git_commit',
      },
    ]);
    expect(existsSync(path.join(gitDir, 'commondir'))).toBe(false);
    expect(existsSync(path.join(gitDir, 'objects', 'info', 'alternates'))).toBe(false);
    expect(await readFile(path.join(gitDir, events[0]?.quarantinedAs ?? 'x'), 'utf8')).toBe(
      '../evil\n',
    );
    expect(await readFile(path.join(gitDir, 'config.worktree'), 'utf8')).toContain('kept');
  });

  it('moves a replaced name too', async () => {
    const { snapshot } = snapshotGitIndirections(gitDir);
    await rm(path.join(gitDir, 'config.worktree'));
    await writeFile(path.join(gitDir, 'config.worktree'), '[core]\n\tfsmonitor = evil\n');

    const { events } = settle(snapshot);

    expect(events).toEqual([
      expect.objectContaining({ name: 'config.worktree', change: 'replaced' }),
    ]);
  });

  it('renames a planted symlink itself, never what it points at', async () => {
    const outside = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-quarantine-out-')));
    try {
      await writeFile(path.join(outside, 'exclude'), 'host file');
      const { snapshot } = snapshotGitIndirections(gitDir);
      await symlink(outside, path.join(gitDir, 'info'));

      const { events } = settle(snapshot);

      expect(events).toEqual([expect.objectContaining({ name: 'info', change: 'appeared' })]);
      expect(existsSync(path.join(gitDir, 'info'))).toBe(false);
      expect(await readdir(outside)).toEqual(['exclude']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it.each([
    ['commondir', 'git worktree add', '../..\n', true],
    ['commondir', 'another repository', '../../../evil\n', false],
    ['commondir', 'an absolute path', '/tmp/evil\n', false],
    ['gitdir', 'a checkout inside the root', 'ROOT/sub/wt/.git\n', true],
    ['gitdir', 'a directory outside the root', '/home/user/project/.git\n', false],
    ['gitdir', 'a climb out of the root', 'ROOT/../victim/.git\n', false],
    ['config.worktree', 'any content', '', false],
  ])('judges a new worktrees/<id>/%s naming %s (kept: %s)', async (name, _case, content, kept) => {
    const { snapshot } = snapshotGitIndirections(gitDir);
    await mkdir(path.join(gitDir, 'worktrees', 'wt'));
    await writeFile(path.join(gitDir, 'worktrees', 'wt', name), content.replace('ROOT', root));

    const { events } = settle(snapshot);

    expect(events.length === 0).toBe(kept);
    expect(existsSync(path.join(gitDir, 'worktrees', 'wt', name))).toBe(kept);
  });

  it('keeps going when the observer throws', async () => {
    const { snapshot } = snapshotGitIndirections(gitDir);
    await writeFile(path.join(gitDir, 'commondir'), '../evil\n');
    await writeFile(path.join(gitDir, 'gitdir'), '/x\n');

    const events = quarantineGitIndirections({
      toolId: 'run_command',
      snapshots: [snapshot],
      roots: [root],
      onQuarantine: () => {
        throw new Error('observer failed');
      },
    });

    expect(events.map((event) => event.quarantinedAs === undefined)).toEqual([false, false]);
  });
});
