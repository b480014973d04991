import { execFile } from 'node:child_process';
import { chown, mkdir, mkdtemp, readFile, realpath, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The same sandbox as an unprivileged user (bwrap through an unprivileged user namespace): as
// root, CI runs a small host program as `nobody` with setpriv.
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const REPOSITORY = fileURLToPath(new URL('../../../../../', import.meta.url));

describe.skipIf(process.platform !== 'linux' || !isRoot)(
  'the process sandbox as an unprivileged user',
  () => {
    let base = '';
    let root = '';
    let outside = '';
    let home = '';

    beforeAll(async () => {
      base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-sbx-nobody-')));
      await chmod(base, 0o755);
      root = path.join(base, 'ws');
      outside = path.join(base, 'outside');
      home = path.join(base, 'home');
      for (const directory of [root, outside, home]) {
        await mkdir(directory);
        await chown(directory, NOBODY, NOBODY);
      }
      // World-readable, so only the sandbox's view keeps it from the user.
      await writeFile(path.join(outside, 'secret.txt'), 'outside secret', { mode: 0o644 });
      await writeFile(path.join(root, '.env'), 'API_KEY=workspace-secret');
      await chown(path.join(root, '.env'), NOBODY, NOBODY);
      const script = `
      import { createProcessArm } from ${JSON.stringify(path.join(REPOSITORY, 'packages/node/src/process/create-process-arm.ts'))};
      const arm = createProcessArm({ root: ${JSON.stringify(root)}, sandbox: 'required' });
      const result = await arm.spawn('/bin/sh', ['-c', process.argv[2]], {}, {});
      console.log(JSON.stringify(result));
    `;
      await writeFile(path.join(base, 'run.mts'), script, { mode: 0o644 });
    });

    afterAll(() => rm(base, { recursive: true, force: true }));

    const runAsNobody = (command: string): Promise<{ stdout: string; exitCode: number | null }> =>
      new Promise((resolve, reject) => {
        execFile(
          'setpriv',
          [
            `--reuid=${NOBODY}`,
            `--regid=${NOBODY}`,
            '--clear-groups',
            'env',
            `HOME=${home}`,
            'PATH=/usr/bin:/bin',
            process.execPath,
            '--conditions=source',
            '--import',
            path.join(REPOSITORY, 'node_modules/tsx/dist/esm/index.mjs'),
            path.join(base, 'run.mts'),
            command,
          ],
          { cwd: root, timeout: 30_000 },
          (error, stdout) => {
            if (error !== null) return reject(error);
            const last = stdout.trim().split('\n').at(-1) ?? '{}';
            resolve(JSON.parse(last) as { stdout: string; exitCode: number | null });
          },
        );
      });

    it('runs sandboxed, writes the workspace, and sees neither outside files nor workspace secrets', async () => {
      const result = await runAsNobody(
        `id -u; cat ${outside}/secret.txt; cat .env; ls -A $HOME | wc -l; echo made > out.txt`,
      );

      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toMatch(/outside secret|workspace-secret/);
      expect(result.stdout.split('\n').slice(0, 1)).toEqual([String(NOBODY)]);
      expect(await readFile(path.join(root, 'out.txt'), 'utf8')).toBe('made\n');
    });
  },
);
