import { access, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveHostGit, runHostGit } from './filter-git-config-host-git.js';

describe('runHostGit', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-host-git-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const fixture = async (body: string): Promise<string> => {
    const file = join(base, 'fake-git');
    await writeFile(file, `#!/bin/sh\n${body}\n`);
    await chmod(file, 0o755);
    return file;
  };
  const request = { args: [], env: { PATH: '/usr/bin:/bin' }, timeoutMs: 5000 };

  it('runs in / with exactly the given environment and stdin from /dev/null', async () => {
    const gitFile = await fixture('pwd; env | sort; cat; echo "args:$*"');

    const run = await runHostGit({ ...request, gitFile, args: ['a b'], maxOutputBytes: 4096 });

    expect(run).toMatchObject({ ok: true, exitCode: 0 });
    const lines = run.ok ? run.stdout.toString('utf8').split('\n') : [];
    expect(lines[0]).toBe('/');
    // `sh` itself adds PWD (and may add SHLVL); nothing comes from this process's env.
    const names = lines.filter((line) => line.includes('=')).map((line) => line.split('=')[0]);
    expect(names.filter((name) => !['PWD', 'SHLVL', '_'].includes(name ?? ''))).toEqual(['PATH']);
    expect(lines).toContain('args:a b');
  });

  it('writes the input to stdin', async () => {
    const gitFile = await fixture('cat');

    const run = await runHostGit({
      ...request,
      gitFile,
      input: Buffer.from('a\0b'),
      maxOutputBytes: 4,
    });

    expect(run).toEqual({ ok: true, exitCode: 0, stdout: Buffer.from('a\0b') });
  });

  it('survives a git that exits before reading its input', async () => {
    const gitFile = await fixture('exit 0');

    const run = await runHostGit({
      ...request,
      gitFile,
      input: Buffer.alloc(4 * 1024 * 1024),
      maxOutputBytes: 4,
    });

    expect(run).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('reports a non-zero exit as a result, not a failure', async () => {
    const gitFile = await fixture('exit 3');

    const run = await runHostGit({ ...request, gitFile, maxOutputBytes: 4096 });

    expect(run).toEqual({ ok: true, exitCode: 3, stdout: Buffer.alloc(0) });
  });

  it('kills a run that outlives its timeout', async () => {
    const gitFile = await fixture('exec sleep 30');
    const started = Date.now();

    const run = await runHostGit({ ...request, gitFile, timeoutMs: 100, maxOutputBytes: 4096 });

    expect(run).toEqual({ ok: false, reason: 'timed_out' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops a run whose output passes the cap', async () => {
    const gitFile = await fixture('exec yes');

    const run = await runHostGit({ ...request, gitFile, maxOutputBytes: 64 * 1024 });

    expect(run).toEqual({ ok: false, reason: 'output_too_large' });
  });

  it('reports a missing executable as a failed spawn', async () => {
    const run = await runHostGit({ ...request, gitFile: join(base, 'none'), maxOutputBytes: 1 });

    expect(run).toEqual({ ok: false, reason: 'spawn_failed' });
  });

  it('reports a path Node refuses to spawn as a failed spawn', async () => {
    const run = await runHostGit({ ...request, gitFile: '/usr/bin/git\0x', maxOutputBytes: 1 });

    expect(run).toEqual({ ok: false, reason: 'spawn_failed' });
  });

  it('rejects with the abort reason and kills the run', async () => {
    const gitFile = await fixture('exec sleep 30');
    const controller = new AbortController();
    const reason = new Error('stop');

    const run = runHostGit({ ...request, gitFile, maxOutputBytes: 1, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);

    await expect(run).rejects.toBe(reason);
  });

  it('starts nothing once already aborted', async () => {
    const gitFile = await fixture(`touch ${join(base, 'ran')}`);
    const signal = AbortSignal.abort(new Error('early'));

    const run = runHostGit({ ...request, gitFile, maxOutputBytes: 1, signal });

    await expect(run).rejects.toThrow('early');
    await expect(access(join(base, 'ran'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('resolveHostGit', () => {
  it('finds git in a fixed system directory, once', async () => {
    const first = await resolveHostGit();

    expect(first).toMatch(/^\/(usr\/(local\/)?)?bin\/git$/);
    expect(resolveHostGit()).toBe(resolveHostGit());
  });
});
