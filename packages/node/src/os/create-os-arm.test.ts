import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolCancelledError } from '@toolhost/core';
import { isRefusedBeforeEffect } from '@toolhost/core/host';
import { createOsArm } from './create-os-arm.js';

const HOSTILE = '-x; $(touch /tmp/pwned-os) `id` "\' \n';

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function onPath(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

const SLEEP = spawnSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).stdout.trim();
const haveX = onPath('xclip') && onPath('Xvfb');

describe('createOsArm without helpers', () => {
  let empty = '';
  beforeAll(async () => {
    empty = await mkdtemp(path.join(tmpdir(), 'toolhost-os-empty-'));
  });
  afterAll(() => rm(empty, { recursive: true, force: true }));

  it('fails readClipboard with not_found', async () => {
    const arm = createOsArm({ hostEnv: { PATH: empty, DISPLAY: ':0' }, platform: 'linux' });

    await expect(arm.readClipboard()).rejects.toMatchObject({
      code: 'tool_failed',
      reason: 'not_found',
    });
  });

  it('fails notify with not_found, marked as before any effect (nothing ran)', async () => {
    const arm = createOsArm({ hostEnv: { PATH: empty }, platform: 'linux' });

    const error = await arm.notify({ title: 't', body: 'b' }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ reason: 'not_found' });
    expect(isRefusedBeforeEffect(error)).toBe(true);
  });
});

describe('notify through a helper on a test PATH', () => {
  let bin = '';
  beforeAll(async () => {
    bin = await mkdtemp(path.join(tmpdir(), 'toolhost-os-bin-'));
    // Records its argv NUL-separated, so the test sees exactly what the helper received.
    await writeFile(
      path.join(bin, 'notify-send'),
      `#!/bin/sh\nprintf '%s\\0' "$@" > "${path.join(bin, 'argv')}"\n`,
    );
    await chmod(path.join(bin, 'notify-send'), 0o755);
  });
  afterAll(() => rm(bin, { recursive: true, force: true }));

  it('passes title and body as argv data after --', async () => {
    const arm = createOsArm({ hostEnv: { PATH: bin }, platform: 'linux' });

    const result = await arm.notify({ title: HOSTILE, body: '--urgency=critical' });

    expect(result).toEqual({ delivered: true });
    const argv = (await readFile(path.join(bin, 'argv'), 'utf8')).split('\0').slice(0, -1);
    expect(argv).toEqual(['--', HOSTILE, '--urgency=critical']);
    expect(existsSync('/tmp/pwned-os')).toBe(false);
  });

  it('fails a NUL in the text with a fixed message that never quotes it', async () => {
    const arm = createOsArm({ hostEnv: { PATH: bin }, platform: 'linux' });

    const attempt = arm.notify({ title: 'SECRET\0title', body: 'b' });

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_failed',
      reason: 'spawn_failed',
      message: 'tool notify failed: spawn_failed',
    });
  });

  it('stops a helper at its timeout', async () => {
    await writeFile(path.join(bin, 'notify-send'), `#!/bin/sh\nexec ${SLEEP} 30\n`);
    const arm = createOsArm({ hostEnv: { PATH: bin }, platform: 'linux', timeoutMs: 200 });
    const started = Date.now();

    await expect(arm.notify({ title: 't', body: 'b' })).rejects.toMatchObject({
      reason: 'timed_out',
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('cancels a helper on abort', async () => {
    await writeFile(path.join(bin, 'notify-send'), `#!/bin/sh\nexec ${SLEEP} 30\n`);
    const arm = createOsArm({ hostEnv: { PATH: bin }, platform: 'linux' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);

    const attempt = arm.notify({ title: 't', body: 'b' }, controller.signal);

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
  });
});

describe.skipIf(!haveX)(
  haveX
    ? 'readClipboard with the real xclip under Xvfb'
    : 'readClipboard with the real xclip (skipped: xclip or Xvfb is not installed)',
  () => {
    // Xvfb picks a free display itself and writes its number once it accepts connections: a
    // display chosen here could be another server's (a lock left behind, a parallel test).
    let display = '';
    let xvfb: ChildProcess | undefined;
    const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

    beforeAll(async () => {
      const server = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp'], {
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
        detached: true,
      });
      xvfb = server;
      const ready = server.stdio[3];
      if (ready === null || ready === undefined) throw new Error('Xvfb: no -displayfd pipe');
      let written = '';
      display = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('Xvfb did not start')), 10_000);
        ready.on('data', (chunk: Buffer) => {
          written += chunk.toString();
          if (!written.includes('\n')) return;
          clearTimeout(timer);
          resolve(`:${written.trim()}`);
        });
        server.once('exit', () => reject(new Error('Xvfb exited')));
      });
      env['DISPLAY'] = display;
    });
    const owners: number[] = [];
    afterAll(() => {
      // `xclip -i` forks a selection owner that lives until another owner takes over; it stays in
      // the process group this test gave it, so end exactly those groups.
      for (const pgid of owners) killGroup(pgid);
      if (xvfb?.pid !== undefined) killGroup(xvfb.pid);
    });

    async function setClipboard(text: string | Buffer): Promise<void> {
      const xclip = spawn('xclip', ['-display', display, '-selection', 'clipboard', '-i'], {
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: true,
        env,
      });
      if (xclip.pid !== undefined) owners.push(xclip.pid);
      xclip.stdin.end(text);
      await new Promise((resolve) => xclip.once('exit', resolve));
    }

    it('returns the clipboard text verbatim', async () => {
      await setClipboard(HOSTILE);
      const arm = createOsArm({ hostEnv: env, platform: 'linux' });

      const text = await arm.readClipboard();

      expect(text).toBe(HOSTILE);
      expect(existsSync('/tmp/pwned-os')).toBe(false);
    });

    it('caps the clipboard at 1 MiB', async () => {
      await setClipboard(Buffer.alloc(3 * 1024 * 1024, 0x61));
      const arm = createOsArm({ hostEnv: env, platform: 'linux' });

      const text = await arm.readClipboard();

      expect(text.length).toBe(1024 * 1024);
    });
  },
);
