import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUiUrlFile, uiUrlFile, writeUiUrlFile } from './ui-url-file.js';

// A PID no process has: above the kernel's pid_max ceiling (2^22).
const DEAD_PID = 2 ** 22 + 1;
const URL_A = 'http://127.0.0.1:4000/?token=a';

describe('the ui-url file', () => {
  let stateDir = '';
  beforeEach(async () => {
    const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-ui-url-')));
    stateDir = path.join(base, 'state');
  });
  afterEach(() => rm(path.dirname(stateDir), { recursive: true, force: true }));

  it('is written 0600 in a fresh state dir, read back, and removed by its writer', async () => {
    const remove = await writeUiUrlFile(stateDir, { url: URL_A, pid: process.pid });

    expect((await stat(uiUrlFile(stateDir))).mode & 0o777).toBe(0o600);
    expect(await readUiUrlFile(stateDir)).toEqual({
      kind: 'found',
      record: { url: URL_A, pid: process.pid },
    });
    await remove?.();
    expect(existsSync(uiUrlFile(stateDir))).toBe(false);
    expect(await readUiUrlFile(stateDir)).toEqual({ kind: 'problem', problem: 'missing' });
  });

  it('replaces a record whose serve is gone, and keeps one whose serve is alive', async () => {
    await writeUiUrlFile(stateDir, { url: URL_A, pid: DEAD_PID });
    expect(await readUiUrlFile(stateDir)).toEqual({ kind: 'problem', problem: 'server_gone' });

    const mine = await writeUiUrlFile(stateDir, { url: URL_A, pid: process.pid });
    const second = await writeUiUrlFile(stateDir, {
      url: 'http://127.0.0.1:4001/?token=b',
      pid: process.pid,
    });

    expect(mine).toBeDefined();
    expect(second).toBeUndefined();
    expect(await readFile(uiUrlFile(stateDir), 'utf8')).toContain(URL_A);
  });

  it('refuses a record pointing off loopback, and never follows a symlink', async () => {
    await writeUiUrlFile(stateDir, { url: URL_A, pid: DEAD_PID });
    await writeFile(
      uiUrlFile(stateDir),
      JSON.stringify({ url: 'http://evil.example/', pid: process.pid }),
    );
    expect(await readUiUrlFile(stateDir)).toEqual({ kind: 'problem', problem: 'unreadable' });

    const elsewhere = path.join(path.dirname(stateDir), 'elsewhere');
    await writeFile(elsewhere, JSON.stringify({ url: URL_A, pid: process.pid }));
    await rm(uiUrlFile(stateDir));
    await symlink(elsewhere, uiUrlFile(stateDir));
    expect(await readUiUrlFile(stateDir)).toEqual({ kind: 'problem', problem: 'unreadable' });
    expect(await writeUiUrlFile(stateDir, { url: URL_A, pid: process.pid })).toBeUndefined();
  });
});
