import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdSandboxStart, type SandboxStartOutcome } from './hold-sandbox-start.js';
import { planSandboxMounts } from './sandbox-mount-plan.js';
import { parseMountInfo } from './verify-sandbox-mounts.js';

describe('parseMountInfo', () => {
  it('reads a mount point with a space or a newline in its name back as written', () => {
    const entries = parseMountInfo(
      [
        '36 35 98:0 / /ws/a\\040b rw,relatime shared:1 - ext4 /dev/vda rw',
        '37 35 98:0 / /ws/c\\012d ro,relatime - ext4 /dev/vda rw',
        '38 35 0:5 / /ws/e rw - tmpfs tmpfs rw',
      ].join('\n'),
    );

    expect(entries).toEqual([
      { mountPoint: '/ws/a b', readOnly: false, fsType: 'ext4' },
      { mountPoint: '/ws/c\nd', readOnly: true, fsType: 'ext4' },
      { mountPoint: '/ws/e', readOnly: false, fsType: 'tmpfs' },
    ]);
  });
});

describe('planSandboxMounts', () => {
  const identity = { dev: 1n, ino: 2n };
  const fdIdentity = (fd: number) => (fd === 5 ? identity : undefined);

  it('expects only what lands inside a writable area and stays visible, in bwrap order', () => {
    const plan = planSandboxMounts(
      [
        '--ro-bind',
        '/usr',
        '/usr',
        '--bind',
        '/',
        '/ws',
        '--ro-bind-fd',
        '5',
        '/ws/.git/hooks',
        '--tmpfs',
        '/ws/.git',
        '--ro-bind-fd',
        '5',
        '/ws/.bashrc',
        '--tmpfs',
        '/ws/secrets',
        '--',
        '--tmpfs',
        '/ws/not-an-option',
      ],
      ['/ws'],
      fdIdentity,
    );

    // The hooks freeze is under the later tmpfs: not visible, not expected.
    expect(plan).toEqual([
      { kind: 'tmpfs', dest: '/ws/.git' },
      { kind: 'bind', dest: '/ws/.bashrc', identity, readOnly: true },
      { kind: 'tmpfs', dest: '/ws/secrets' },
    ]);
  });

  it('refuses an option it cannot read back, or a source it cannot name', () => {
    expect(() => planSandboxMounts(['--overlay-src', '/x'], ['/ws'], fdIdentity)).toThrow(
      TypeError,
    );
    expect(() => planSandboxMounts(['--ro-bind-fd', '9', '/ws/x'], ['/ws'], fdIdentity)).toThrow(
      TypeError,
    );
  });
});

// Real bwrap held before its command while the host checks the view: a destination that went
// through a symlink is found where bwrap really mounted it, and the command never runs.
describe.skipIf(process.platform !== 'linux')('holdSandboxStart', () => {
  let base = '';
  let root = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-start-')));
    root = path.join(base, 'ws');
    await mkdir(path.join(root, 'frozen'), { recursive: true });
    await mkdir(path.join(root, 'decoy'));
    await writeFile(path.join(root, 'frozen', 'file'), 'x');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const runHeld = async (): Promise<{ outcome: SandboxStartOutcome; code: number | null }> => {
    const marker = path.join(root, 'ran');
    const args = [
      '--unshare-all',
      '--die-with-parent',
      '--ro-bind',
      '/usr',
      '/usr',
      '--symlink',
      'usr/bin',
      '/bin',
      '--symlink',
      'usr/lib',
      '/lib',
      '--symlink',
      'usr/lib64',
      '/lib64',
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--bind',
      root,
      root,
      '--ro-bind',
      path.join(base, 'ws', 'decoy'),
      path.join(root, 'frozen'),
      '--info-fd',
      '3',
      '--block-fd',
      '4',
      '--',
      '/bin/sh',
      '-c',
      `touch ${marker}`,
    ];
    const info = statSync(path.join(root, 'decoy'), { bigint: true });
    const plan = planSandboxMounts(args, [root], () => undefined);
    expect(plan).toEqual([
      {
        kind: 'bind',
        dest: path.join(root, 'frozen'),
        identity: { dev: info.dev, ino: info.ino },
        readOnly: true,
      },
    ]);
    const child = spawn('bwrap', args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const [infoStream, block] = [child.stdio[3], child.stdio[4]];
    if (!(infoStream instanceof Readable) || !(block instanceof Writable)) throw new Error('stdio');
    const outcome = await holdSandboxStart(
      { info: infoStream, block, blockFd: 4 },
      plan,
      () => child.kill('SIGKILL'),
      10_000,
    );
    return { outcome, code: await closed };
  };

  it('lets the command go when every mount is where the plan put it', async () => {
    const { outcome, code } = await runHeld();

    expect(outcome).toBe('released');
    expect(code).toBe(0);
    expect(existsSync(path.join(root, 'ran'))).toBe(true);
  });

  it('kills the sandbox before its command when a destination went through a symlink', async () => {
    // What a concurrent process on the workspace does between the host's check and bwrap's mount.
    await rm(path.join(root, 'frozen'), { recursive: true });
    await mkdir(path.join(root, 'elsewhere'));
    await symlink('elsewhere', path.join(root, 'frozen'));

    const { outcome } = await runHeld();

    expect(outcome).toEqual({ refused: 'mount_missing' });
    expect(existsSync(path.join(root, 'ran'))).toBe(false);
  });
});
