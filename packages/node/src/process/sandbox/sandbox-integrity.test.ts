import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeToolHost, type NodeToolHostHandle } from '../../create-node-tool-host.js';
import { createSandbox, type SandboxContext } from './create-sandbox.js';

// No path the workspace controls may shape the sandbox: each attack is planted by one ordinary
// sandboxed command, then the next spawn is checked on the HOST. Real bwrap, real processes.
const HOST_SECRET = `integrity-secret-${process.pid}`;

describe.skipIf(process.platform !== 'linux')('the sandbox view, shaped from inside', () => {
  let base = '';
  let root = '';
  let outside = '';
  let home = '';
  let state = '';
  let handle: NodeToolHostHandle;

  const spawnIn = async (file: string, args: readonly string[]) => {
    const spawnInHost = handle.host.process?.spawn;
    if (spawnInHost === undefined) throw new Error('no process arm');
    return spawnInHost(file, [...args], {}, {});
  };
  const run = (script: string) => spawnIn('/bin/sh', ['-c', script]);
  const denial = async (promise: Promise<unknown>): Promise<string | undefined> => {
    try {
      await promise;
      return undefined;
    } catch (error) {
      return error instanceof ToolPolicyError ? error.reason : String(error);
    }
  };

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-integrity-')));
    root = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    home = path.join(base, 'home');
    state = path.join(base, 'state');
    await mkdir(root);
    await mkdir(path.join(outside, '.git'), { recursive: true });
    await writeFile(path.join(outside, 'secret.txt'), HOST_SECRET);
    await writeFile(path.join(outside, '.git', 'secret'), HOST_SECRET);
    await mkdir(home);
    await writeFile(path.join(home, '.npmrc'), `//registry/:_authToken=${HOST_SECRET}`);
    execFileSync('git', ['init', '-q', root]);
    handle = await createNodeToolHost({
      root,
      stateDir: state,
      process: { sandbox: 'required', hostEnv: { ...process.env, HOME: home }, timeoutMs: 20_000 },
    });
  });
  afterAll(async () => {
    await handle?.close();
    await rm(base, { recursive: true, force: true });
  });
  // Each attack starts from a clean workspace (its repository kept).
  afterEach(async () => {
    for (const name of await readdir(root)) {
      if (name !== '.git') await rm(path.join(root, name), { recursive: true, force: true });
    }
  });

  const nothingOutside = async (): Promise<void> => {
    expect((await readdir(base)).sort()).toEqual(['home', 'outside', 'state', 'ws']);
    expect((await readdir(outside)).sort()).toEqual(['.git', 'secret.txt']);
    expect(await readdir(path.join(outside, '.git'))).toEqual(['secret']);
  };

  it.each([
    ['its parent', 'ln -s .. lnk'],
    ['the outside directory', `ln -s ${outside} lnk`],
    ['a parent spelled with ..', 'mkdir -p d/e && ln -s ../../.. lnk'],
    ['a chain of links', 'ln -s lnk2 lnk && ln -s .. lnk2'],
  ])(
    'refuses a gitdir pointer through a workspace symlink to %s, and creates nothing there',
    async (_target, plant) => {
      await run(`${plant} && mkdir sub && printf 'gitdir: ../lnk\\n' > sub/.git`);

      expect(await denial(run('true'))).toBe('symlink_refused');
      await nothingOutside();
    },
  );

  it('ignores a gitdir pointer that leaves the workspace without a link, creating nothing', async () => {
    await run(`mkdir sub && printf 'gitdir: ../../outside/.git\\n' > sub/.git`);

    const result = await run(`cat ${outside}/.git/secret; echo ran`);

    expect(result.stdout).toContain('ran');
    expect(result.stdout).not.toContain(HOST_SECRET);
    await nothingOutside();
  });

  it.each([
    ['#!/tmp/../bin/sh', '#!/tmp/../bin/sh'],
    ['#!/tmp/./../usr/bin/../bin/sh', '#!/tmp/./../usr/bin/../bin/sh'],
    ['an interpreter through a workspace link to /', '#!ROOT/rootlink/bin/sh'],
    ['an interpreter through a workspace link to the outside', '#!ROOT/outlink/../bin/sh'],
  ])(
    'never binds the host over the view for a script whose first line is %s',
    async (_case, line) => {
      await run(`ln -s / rootlink; ln -s ${outside} outlink; true`);
      const script = path.join(root, 'script.sh');
      await writeFile(
        script,
        `${line.replace('ROOT', root)}\ncat ${outside}/secret.txt ${home}/.npmrc ${state}/sandbox/masks/empty 2>/dev/null; ls /proc | grep -c '^[0-9]'; echo ran\n`,
      );
      await chmod(script, 0o755);

      // Refused by the kernel inside (the interpreter is not in the view) or run in the view:
      // either way the host's files and processes stay unseen.
      const result = await spawnIn(script, []).catch(() => ({ stdout: '' }));

      expect(result.stdout).not.toContain(HOST_SECRET);
      // Only the sandbox's own processes: the host's /proc is never shown.
      const count = Number(result.stdout.split('\n').find((line) => /^\d+$/.test(line)));
      if (result.stdout.includes('ran')) expect(count).toBeLessThan(10);
      await nothingOutside();
    },
  );

  it('never binds the host for an executable reached through a workspace link to /', async () => {
    await run('ln -s / rootlink');

    const result = await spawnIn(path.join(root, 'rootlink', 'bin', 'sh'), [
      '-c',
      `cat ${outside}/secret.txt ${home}/.npmrc; echo ran`,
    ]);

    expect(result.stdout).toContain('ran');
    expect(result.stdout).not.toContain(HOST_SECRET);
  });

  it('refuses a nested repository whose hooks are a symlink out of it', async () => {
    // Found so before a spawn (a clone, the user's own hand): the view cannot freeze it in place.
    execFileSync('git', ['init', '-q', path.join(root, 'nested')]);
    await rm(path.join(root, 'nested', '.git', 'hooks'), { recursive: true });
    await symlink('../../..', path.join(root, 'nested', '.git', 'hooks'));

    expect(await denial(run('true'))).toBe('symlink_refused');
    await nothingOutside();
  });

  it('moves aside the symlinked hooks of a repository a run made, before the next spawn', async () => {
    await run('git init -q nested && rm -rf nested/.git/hooks && ln -s ../../.. nested/.git/hooks');

    // The run's release judged the new repository: its hooks link is no longer there.
    expect(
      (
        await lstat(path.join(root, 'nested', '.git', 'hooks')).catch(() => undefined)
      )?.isSymbolicLink() ?? false,
    ).toBe(false);
    const after = await run(`ls nested/.git/hooks/ 2>&1; echo ran`);
    expect(after.stdout).toContain('ran');
    expect(after.stdout).not.toContain(path.basename(root));
    await nothingOutside();
  });

  it('refuses a write-floor file swapped for a symlink', async () => {
    await run(`ln -s ${outside}/secret.txt .bashrc`);

    // A symlink holds no secret itself and is not frozen: the run goes on, the host is unseen.
    const result = await run('cat .bashrc; echo ran');
    expect(result.stdout).toContain('ran');
    expect(result.stdout).not.toContain(HOST_SECRET);
  });

  it('protects a repository in a directory whose name holds a newline', async () => {
    await run(`git init -q 'a\nb' && echo ok`);
    // Protected from the next spawn on: its hooks are read-only inside.
    await run(`echo evil > 'a\nb/.git/hooks/pre-commit'; chmod +x 'a\nb/.git/hooks/pre-commit'`);

    expect(existsSync(path.join(root, 'a\nb', '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('a symlink swapped in after the scan', () => {
  let base = '';
  let root = '';
  // The host user's home: an empty tmpfs inside the view, so a mount redirected there lands in a
  // directory that exists. It holds what a home holds: a dotfiles repository, a credential.
  let outside = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-swap-')));
    root = path.join(base, 'ws');
    outside = path.join(base, 'home');
    await mkdir(path.join(outside, '.git'), { recursive: true });
    await mkdir(path.join(outside, 'hooks'), { recursive: true });
    await writeFile(path.join(outside, '.git', 'secret'), HOST_SECRET);
    await writeFile(path.join(outside, 'secret'), HOST_SECRET);
    await mkdir(root);
    execFileSync('git', ['init', '-q', path.join(root, 'sub')]);
    await writeFile(path.join(root, '.bashrc'), 'echo original');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const prepareAndSwap = async (swap: () => Promise<void>, script: string) => {
    const context: SandboxContext = {
      fsScope: 'sandboxed',
      roots: [root],
      floor: {
        stateDir: path.join(base, 'state'),
        spillDir: path.join(base, 'state', 'spill'),
        configFile: path.join(root, 'toolhost.config.json'),
      },
      stateDir: path.join(base, 'state'),
      hostEnv: { PATH: '/usr/bin:/bin', HOME: outside },
    };
    const sandbox = createSandbox('required', {}, context);
    const prepared = await sandbox.prepare({
      toolId: 'run_command',
      file: '/bin/sh',
      args: ['-c', script],
      env: { PATH: '/usr/bin:/bin' },
      cwd: root,
      limits: [],
    });
    await swap();
    const child = spawn(prepared.file, [...prepared.args], {
      env: prepared.env,
      stdio: ['ignore', 'pipe', 'pipe', ...prepared.extraStdio],
    });
    prepared.started(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    prepared.release();
    const refused = prepared.startRefused();
    if (process.env['DEBUG_SWAP'] !== undefined) console.log({ code, stdout, stderr, refused });
    return { code, stdout, stderr, refused };
  };

  it('binds the git dir that was verified, not the one a swapped parent now names', async () => {
    const result = await prepareAndSwap(async () => {
      await rename(path.join(root, 'sub'), path.join(root, 'sub-real'));
      // Relative: bwrap resolves an absolute link against its own setup root, a relative one
      // lands the same on both sides of the mount.
      await symlink(path.relative(root, outside), path.join(root, 'sub'));
    }, `cat ${root}/sub/.git/secret ${outside}/.git/secret; echo planted > ${root}/sub/.git/planted; echo ran`);

    // bwrap followed the swapped destination and mounted the verified git dir over the home's:
    // the host's start check finds no mount where the plan put it and kills the sandbox before
    // the command ran — never the home's repository, never a write to it.
    expect(result.refused).toBe('mount_missing');
    expect(result.stdout).not.toContain('ran');
    expect(existsSync(path.join(outside, '.git', 'planted'))).toBe(false);
  });

  it('freezes the file that was verified, not the one a swapped name now points at', async () => {
    const result = await prepareAndSwap(async () => {
      await rm(path.join(root, '.bashrc'));
      await symlink(path.relative(root, path.join(outside, 'secret')), path.join(root, '.bashrc'));
    }, `cat ${outside}/secret ${root}/.bashrc; echo ran`);

    // bwrap refuses the race (the pinned file is gone) or the mount shows what was verified:
    // never the host's file.
    expect(result.stdout).not.toContain(HOST_SECRET);
    expect(result.code === 0 ? result.stdout : result.stderr).toMatch(/ran|bwrap: /);
  });

  it('binds the hooks that were verified, not a swapped-in symlink', async () => {
    const result = await prepareAndSwap(async () => {
      const hooks = path.join(root, 'sub', '.git', 'hooks');
      await rename(hooks, path.join(root, 'sub', '.git', 'hooks-old'));
      await symlink(path.relative(path.dirname(hooks), path.join(outside, 'hooks')), hooks);
    }, `echo evil > ${root}/sub/.git/hooks/pre-commit; ls ${outside}; echo ran`);

    expect(result.stdout).not.toContain('secret');
    expect(result.code === 0 ? result.stdout : result.stderr).toMatch(/ran|bwrap: /);
    expect(await readdir(path.join(outside, 'hooks'))).toEqual([]);
  });
});

describe.skipIf(process.platform !== 'linux')('two host processes on one workspace', () => {
  let base = '';
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('run 500 sandboxed commands at once with no spurious failure, leaving nothing behind', async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-two-')));
    const root = path.join(base, 'ws');
    execFileSync('git', ['init', '-q', root]);
    // Neither protected name exists: every spawn of both processes must cope with that.
    await rm(path.join(root, '.git', 'hooks'), { recursive: true, force: true });
    const script = path.join(import.meta.dirname, 'test-support', 'run-sandboxed-commands.ts');
    const runOne = (state: string) =>
      new Promise<{ failures: string[] }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--conditions', 'source', '--import', 'tsx', script, root, state, '250', '4'],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve(JSON.parse(out) as { failures: string[] }) : reject(new Error(out)),
        );
      });

    const [first, second] = await Promise.all([
      runOne(path.join(base, 'state-a')),
      runOne(path.join(base, 'state-b')),
    ]);

    expect([...first.failures, ...second.failures]).toEqual([]);
    expect((await readdir(root)).sort()).toEqual(['.git']);
    expect(await readdir(path.join(root, '.git', 'hooks'))).toEqual([]);
  }, 240_000);
});
