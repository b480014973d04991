import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp workspace root with its own state dir outside it, removed by `cleanup`. */
export interface Workspace {
  readonly root: string;
  readonly stateDir: string;
  /** `--state-dir` for every command, so tests never touch the home directory. */
  readonly stateFlags: readonly string[];
  write(relative: string, content: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** Creates a workspace with a `notes.txt` in it. */
export async function createWorkspace(): Promise<Workspace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-cli-')));
  const root = join(base, 'app');
  const stateDir = join(base, 'state');
  await mkdir(root);
  await writeFile(join(root, 'notes.txt'), 'hello from notes\n');
  return {
    root,
    stateDir,
    stateFlags: ['--state-dir', stateDir],
    write: async (relative, content) => {
      await writeFile(join(root, relative), content);
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}
