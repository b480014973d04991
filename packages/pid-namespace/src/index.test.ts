import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPidNamespace } from './index.js';

const LOADER = fileURLToPath(new URL('./index.js', import.meta.url));
const EPERM = 1;

// Where util-linux can make a PID namespace as this user without a user namespace, the addon
// must be able to as well: a missing build fails here instead of silently falling back.
const rootMayUnshare =
  process.platform === 'linux' &&
  spawnSync('unshare', ['--pid', '--fork', '--', 'true'], { stdio: 'ignore' }).status === 0;

function output(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', () => resolve(text));
  });
}

describe.runIf(rootMayUnshare)('the built addon', () => {
  const addon = loadPidNamespace();
  const probe = ['-c', 'echo $$; readlink /proc/self/ns/pid'];

  it('loads', () => {
    expect(addon).toBeDefined();
  });

  it('starts the next child as PID 1 of a fresh namespace, and only that child', async () => {
    const own = readlinkSync('/proc/thread-self/ns/pid');
    const fd = addon?.enterFreshPidNamespace() ?? -1;
    expect(fd).toBeGreaterThanOrEqual(0);
    let inside;
    try {
      inside = spawn('sh', probe, { stdio: ['ignore', 'pipe', 'ignore'] });
    } finally {
      expect(addon?.leavePidNamespace(fd)).toBe(0);
    }
    const after = execFileSync('sh', probe, { encoding: 'utf8' }).split('\n');

    const [pid, namespace] = (await output(inside)).split('\n');
    expect(pid).toBe('1');
    expect(namespace).not.toBe(own);
    expect(after[0]).not.toBe('1');
    expect(after[1]).toBe(own);
    expect(readlinkSync('/proc/thread-self/ns/pid_for_children')).toBe(own);
  });

  it('kills a setsid escapee holding stdout when PID 1 exits', async () => {
    const fd = addon?.enterFreshPidNamespace() ?? -1;
    let child;
    try {
      child = spawn('sh', ['-c', 'setsid sh -c "sleep 30; echo leaked" & echo started'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } finally {
      addon?.leavePidNamespace(fd);
    }
    const started = Date.now();

    expect(await output(child)).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses to enter without CAP_SYS_ADMIN and leaves the thread as it was', () => {
    const script = `import(${JSON.stringify(LOADER)}).then(({ loadPidNamespace }) => {
      const own = require('node:fs').readlinkSync('/proc/thread-self/ns/pid');
      const entered = loadPidNamespace().enterFreshPidNamespace();
      const after = require('node:fs').readlinkSync('/proc/thread-self/ns/pid_for_children');
      console.log(JSON.stringify({ entered, unchanged: after === own }));
    })`;

    const printed = execFileSync(
      'setpriv',
      ['--inh-caps=-sys_admin', '--bounding-set=-sys_admin', '--', process.execPath, '-e', script],
      { encoding: 'utf8' },
    );

    expect(JSON.parse(printed)).toEqual({ entered: -EPERM, unchanged: true });
  });
});

describe('the loader', () => {
  it('returns undefined, never throws, when the addon was not built', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'toolhost-pidns-'));
    try {
      await copyFile(LOADER, path.join(directory, 'index.js'));
      await copyFile(
        path.join(path.dirname(LOADER), '..', 'package.json'),
        path.join(directory, 'package.json'),
      );
      const printed = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { loadPidNamespace } from ${JSON.stringify(path.join(directory, 'index.js'))};
           console.log(String(loadPidNamespace()));`,
        ],
        { encoding: 'utf8' },
      );

      expect(printed.trim()).toBe('undefined');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
