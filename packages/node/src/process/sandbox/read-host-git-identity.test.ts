import { execFileSync, spawnSync } from 'node:child_process';
import { access, chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXED_ENV } from '../build-child-env.js';
import { identityConfigEnv, readHostGitIdentity } from './read-host-git-identity.js';

const GIT = '/usr/bin/git';
// The system config counts too; the "nothing set" case only holds where it sets no identity.
const systemSetsIdentity =
  spawnSync(GIT, ['config', '--system', '--get-regexp', '^user\\.'], { env: {} }).status === 0;

describe('readHostGitIdentity', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-identity-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  // Each test gets its own HOME, so memoisation never carries an answer between tests.
  const home = async (gitconfig?: string): Promise<string> => {
    const dir = join(base, 'home');
    await mkdir(dir, { recursive: true });
    if (gitconfig !== undefined) await writeFile(join(dir, '.gitconfig'), gitconfig);
    return dir;
  };

  it('reads user.name and user.email from the global config', async () => {
    const HOME = await home('[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n');

    const identity = await readHostGitIdentity({ HOME });

    expect(identity).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
  });

  it('follows an include, as git does', async () => {
    const HOME = await home('[include]\n\tpath = identity.inc\n');
    await writeFile(
      join(HOME, 'identity.inc'),
      '[user]\n\tname = "Grace Hopper"\n\temail = g@example.com\n',
    );

    const identity = await readHostGitIdentity({ HOME });

    expect(identity).toEqual({ name: 'Grace Hopper', email: 'g@example.com' });
  });

  it('reads $XDG_CONFIG_HOME/git/config, with ~/.gitconfig read after it winning', async () => {
    const HOME = await home('[user]\n\tname = From Home\n');
    const XDG_CONFIG_HOME = join(base, 'xdg');
    await mkdir(join(XDG_CONFIG_HOME, 'git'), { recursive: true });
    await writeFile(
      join(XDG_CONFIG_HOME, 'git', 'config'),
      '[user]\n\tname = From Xdg\n\temail = xdg@example.com\n',
    );

    const identity = await readHostGitIdentity({ HOME, XDG_CONFIG_HOME });

    expect(identity).toEqual({ name: 'From Home', email: 'xdg@example.com' });
  });

  it.runIf(!systemSetsIdentity)('returns {} when nothing sets an identity', async () => {
    const HOME = await home();

    expect(await readHostGitIdentity({ HOME })).toEqual({});
  });

  it('drops a value that is too long, even over an earlier usable one', async () => {
    const HOME = await home(
      `[user]\n\tname = Early\n\temail = e@example.com\n\tname = ${'x'.repeat(257)}\n`,
    );

    expect(await readHostGitIdentity({ HOME })).toEqual({ email: 'e@example.com' });
  });

  it('drops a value with a newline and a bare key', async () => {
    const HOME = await home('[user]\n\tname = "two\\nlines"\n\temail\n');

    expect(await readHostGitIdentity({ HOME })).toEqual({});
  });

  it('memoises per HOME and XDG_CONFIG_HOME', async () => {
    const HOME = await home('[user]\n\tname = First\n');
    const first = await readHostGitIdentity({ HOME });
    await writeFile(join(HOME, '.gitconfig'), '[user]\n\tname = Second\n');

    const again = await readHostGitIdentity({ HOME, PATH: '/elsewhere' });
    const otherXdg = await readHostGitIdentity({ HOME, XDG_CONFIG_HOME: join(base, 'none') });

    expect([first.name, again.name, otherXdg.name]).toEqual(['First', 'First', 'Second']);
  });

  it('reads as no identity when git fails, and asks again next time', async () => {
    const HOME = await home('[user\n\tname = Broken\n');
    const failed = await readHostGitIdentity({ HOME });
    await writeFile(join(HOME, '.gitconfig'), '[user]\n\tname = Fixed\n');

    const again = await readHostGitIdentity({ HOME });

    expect([failed, again]).toEqual([{}, { name: 'Fixed' }]);
  });

  it('runs no program the config names', async () => {
    const marker = join(base, 'ran');
    const program = join(base, 'program');
    await writeFile(program, `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(program, 0o755);
    const HOME = await home(
      [
        '[user]',
        '\tname = N',
        '[core]',
        `\tfsmonitor = ${program}`,
        `\tpager = ${program}`,
        `\tsshCommand = ${program}`,
        '[credential]',
        `\thelper = !${program}`,
        '[alias]',
        `\tconfig = !${program}`,
        '[includeIf "hasconfig:remote.*.url:**"]',
        '\tpath = nothing.inc',
        '',
      ].join('\n'),
    );

    const identity = await readHostGitIdentity({ HOME });

    expect(identity).toEqual({ name: 'N' });
    await expect(access(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('identityConfigEnv', () => {
  it('appends the pairs after the indexes already in use and sets the new count', () => {
    const result = identityConfigEnv({ name: 'Ada', email: 'ada@example.com' }, 2);

    expect(result).toEqual({
      entries: {
        GIT_CONFIG_KEY_2: 'user.name',
        GIT_CONFIG_VALUE_2: 'Ada',
        GIT_CONFIG_KEY_3: 'user.email',
        GIT_CONFIG_VALUE_3: 'ada@example.com',
        GIT_CONFIG_COUNT: '4',
      },
      count: 4,
    });
  });

  it('adds only the parts that are set and usable', () => {
    const result = identityConfigEnv({ name: 'a\nb', email: 'e@example.com' }, 0);

    expect(result).toEqual({
      entries: {
        GIT_CONFIG_KEY_0: 'user.email',
        GIT_CONFIG_VALUE_0: 'e@example.com',
        GIT_CONFIG_COUNT: '1',
      },
      count: 1,
    });
  });

  it('adds nothing, and leaves the count alone, for no identity', () => {
    expect(identityConfigEnv({}, 2)).toEqual({ entries: {}, count: 2 });
  });

  it.each([[-1], [1.5], [Number.NaN]])('refuses start index %s', (startIndex) => {
    expect(() => identityConfigEnv({}, startIndex)).toThrow(TypeError);
  });

  it('gives a git with an empty HOME that identity for a commit', async () => {
    const base = await mkdtemp(join(tmpdir(), 'toolhost-identity-commit-'));
    try {
      const emptyHome = join(base, 'home');
      await mkdir(emptyHome);
      const repo = join(base, 'repo');
      execFileSync(GIT, ['init', '-q', repo]);
      const { entries } = identityConfigEnv(
        { name: "Zoë O'Brien", email: 'zoe@example.com' },
        Number(FIXED_ENV['GIT_CONFIG_COUNT']),
      );
      const env = {
        PATH: '/usr/bin:/bin',
        HOME: emptyHome,
        GIT_CONFIG_NOSYSTEM: '1',
        ...FIXED_ENV,
        ...entries,
      };

      execFileSync(GIT, ['commit', '-q', '--allow-empty', '-m', 'x'], { cwd: repo, env });
      const author = execFileSync(GIT, ['log', '-1', '--format=%an <%ae>|%cn <%ce>'], {
        cwd: repo,
        env,
        encoding: 'utf8',
      });
      // The fixed pairs still apply: the identity was appended, not written over them.
      const fsmonitor = execFileSync(GIT, ['config', 'core.fsmonitor'], {
        cwd: repo,
        env,
        encoding: 'utf8',
      });

      expect(author).toBe("Zoë O'Brien <zoe@example.com>|Zoë O'Brien <zoe@example.com>\n");
      expect(fsmonitor).toBe('false\n');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
