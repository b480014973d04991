import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXED_ENV } from './build-child-env.js';
import { driverOverrides, neutraliseGitDrivers } from './neutralise-git-drivers.js';

describe('driverOverrides', () => {
  it('empties every program of each named filter, diff and merge driver, once per name', () => {
    expect(
      driverOverrides([
        'filter.lfs.clean',
        'filter.lfs.smudge',
        'diff.a.b.textconv',
        'merge.ours.driver',
        'protocol.ext.allow',
      ]),
    ).toEqual([
      ['filter.lfs.clean', ''],
      ['filter.lfs.smudge', ''],
      ['filter.lfs.process', ''],
      ['filter.lfs.required', 'false'],
      ['diff.a.b.textconv', ''],
      ['diff.a.b.command', ''],
      ['merge.ours.driver', ''],
      ['protocol.ext.allow', 'never'],
    ]);
  });

  it('keeps a subsection exactly as written, and ignores keys without one or other sections', () => {
    expect(
      driverOverrides([
        'filter.Ev=il\nx.clean',
        'diff.external',
        'core.editor',
        'remote.o.url',
        '',
      ]),
    ).toEqual([
      ['filter.Ev=il\nx.clean', ''],
      ['filter.Ev=il\nx.smudge', ''],
      ['filter.Ev=il\nx.process', ''],
      ['filter.Ev=il\nx.required', 'false'],
    ]);
  });
});

describe('neutraliseGitDrivers', () => {
  let base = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-git-drivers-')));
    execFileSync('git', ['init', '-q'], { cwd: base });
    execFileSync('git', ['config', 'filter.evil.clean', 'touch x'], { cwd: base });
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const env = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', ...FIXED_ENV };

  it('appends the overrides after the fixed entries and counts them', async () => {
    const result = await neutraliseGitDrivers({
      toolId: 'git_status',
      file: '/usr/bin/git',
      cwd: base,
      env,
    });

    expect(result).toMatchObject({
      ...env,
      GIT_CONFIG_COUNT: '6',
      GIT_CONFIG_KEY_2: 'filter.evil.clean',
      GIT_CONFIG_VALUE_2: '',
      GIT_CONFIG_KEY_5: 'filter.evil.required',
      GIT_CONFIG_VALUE_5: 'false',
    });
  });

  it('leaves a non-git child, and a repository without drivers, as they were', async () => {
    execFileSync('git', ['config', '--unset', 'filter.evil.clean'], { cwd: base });

    expect(
      await neutraliseGitDrivers({ toolId: 'run_command', file: '/bin/sh', cwd: base, env }),
    ).toBe(env);
    expect(
      await neutraliseGitDrivers({ toolId: 'git_status', file: '/usr/bin/git', cwd: base, env }),
    ).toEqual(env);
  });

  it('fails the call when git cannot list the config (the child would read it too)', async () => {
    execFileSync('sh', ['-c', 'printf "[broken\\n" >> .git/config'], { cwd: base });

    await expect(
      neutraliseGitDrivers({ toolId: 'git_status', file: '/usr/bin/git', cwd: base, env }),
    ).rejects.toMatchObject({ code: 'tool_failed', reason: 'git_config_unreadable' });
  });
});
