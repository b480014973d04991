import { mkdir, mkdtemp, readdir, readFile, realpath, rm, lstat, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolHost } from '@toolhost/core';
import type { FsCapability } from '@toolhost/core/host';
import { createNodeToolHost } from '../../create-node-tool-host.js';
import type { NodeToolHostOptions } from '../../host-options.js';
import { createJail, type Jail } from '../jail.js';

/** A fresh `${SANDBOX}` with `app` (the root), `outside` and `state`, all real paths. */
export interface Sandbox {
  readonly sandbox: string;
  readonly root: string;
  readonly outside: string;
  readonly stateDir: string;
  readonly host: ToolHost;
  readonly fs: Required<FsCapability>;
  close(): Promise<void>;
}

/** Builds a sandbox and a host over it; `close` removes both. */
export async function createSandbox(
  options:
    | Partial<NodeToolHostOptions>
    | ((paths: { sandbox: string }) => Partial<NodeToolHostOptions>) = {},
  prepare?: (paths: { sandbox: string; root: string; outside: string }) => Promise<void>,
): Promise<Sandbox> {
  const sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-fs-')));
  const root = path.join(sandbox, 'app');
  const outside = path.join(sandbox, 'outside');
  const stateDir = path.join(sandbox, 'state');
  await mkdir(root);
  await mkdir(outside);
  await prepare?.({ sandbox, root, outside });
  const extra = typeof options === 'function' ? options({ sandbox }) : options;
  const handle = await createNodeToolHost({ root, stateDir, runId: 'test-run', ...extra });
  const fs = handle.host.fs as Required<FsCapability>;
  return {
    sandbox,
    root,
    outside,
    stateDir,
    host: handle.host,
    fs,
    async close() {
      await handle.close();
      await rm(sandbox, { recursive: true, force: true });
    },
  };
}

/**
 * Every entry under `directory` (recursive, symlinks not followed) with its content or link
 * target: compare two snapshots to prove nothing was created or modified.
 */
export async function snapshotTree(
  directory: string,
  skip: readonly string[] = [],
): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const visit = async (current: string): Promise<void> => {
    for (const name of (await readdir(current)).sort()) {
      const full = path.join(current, name);
      if (skip.includes(full)) continue;
      const stats = await lstat(full);
      const key = path.relative(directory, full);
      if (stats.isSymbolicLink()) result[key] = `link:${await readlink(full)}`;
      else if (stats.isDirectory()) {
        result[key] = 'dir';
        await visit(full);
      } else result[key] = `file:${(await readFile(full)).toString('utf8')}`;
    }
  };
  await visit(directory);
  return result;
}

/**
 * A `sandboxed` jail over a box's root with the host's floor (state dir, spill dir, the config
 * file in the root): what an arm is built on, for tests that drive an arm's hooks directly.
 */
export function createSandboxJail(
  box: Pick<Sandbox, 'root' | 'stateDir'>,
  spillDir = path.join(box.stateDir, 'spill'),
): Promise<Jail> {
  return createJail({
    root: box.root,
    fsScope: 'sandboxed',
    extraRoots: [],
    floor: {
      stateDir: box.stateDir,
      spillDir,
      configFile: path.join(box.root, 'toolhost.config.json'),
    },
  });
}
