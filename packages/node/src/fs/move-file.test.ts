import { link, mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import type { FsMoveRequest } from '@toolhost/core/host';
import { createMemoryEffectJournal } from '@toolhost/core/journal';
import { moveFileTool } from '@toolhost/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createJail, type Jail } from './jail.js';
import { createMoveFile } from './move-file.js';
import { createSandbox, snapshotTree } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

const SECRET = 'OUTSIDE-SECRET';

describe('move_file on disk', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  const move = (request: FsMoveRequest) => {
    if (box === undefined) throw new Error('no sandbox');
    return box.fs.moveFile(request);
  };
  const read = (relative: string) => readFile(path.join(box?.root ?? '', relative), 'utf8');

  it('moves a file, creating the missing parents of the destination', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'A');
    });

    const moved = await move({ source: 'a.txt', destination: 'x/y/a.txt' });

    expect(moved).toEqual({ source: 'a.txt', destination: 'x/y/a.txt', overwritten: false });
    expect(await read('x/y/a.txt')).toBe('A');
    expect(await readdir(box.root)).toEqual(['x']);
    expect((await stat(path.join(box.root, 'x/y/a.txt'))).nlink).toBe(1);
  });

  it('refuses an existing destination without overwrite and changes nothing', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'A');
      await writeFile(path.join(root, 'b.txt'), 'B');
      await mkdir(path.join(root, 'dir'));
      await mkdir(path.join(root, 'empty'));
    });
    const before = await snapshotTree(box.root);

    const file = move({ source: 'a.txt', destination: 'b.txt' });
    const directory = move({ source: 'dir', destination: 'empty' });

    await expect(file).rejects.toMatchObject({ reason: 'exists', correctable: true });
    await expect(directory).rejects.toMatchObject({ reason: 'exists', correctable: true });
    expect(await snapshotTree(box.root)).toEqual(before);
  });

  it('replaces a file with overwrite and says so', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'A');
      await writeFile(path.join(root, 'b.txt'), 'B');
      await writeFile(path.join(root, 'c.txt'), 'C');
    });

    const replaced = await move({ source: 'a.txt', destination: 'b.txt', overwrite: true });
    const fresh = await move({ source: 'c.txt', destination: 'd.txt', overwrite: true });

    expect(replaced).toEqual({ source: 'a.txt', destination: 'b.txt', overwritten: true });
    expect(fresh.overwritten).toBe(false);
    expect(await read('b.txt')).toBe('A');
    expect((await readdir(box.root)).sort()).toEqual(['b.txt', 'd.txt']);
  });

  it.each([
    ['a non-empty directory', 'full', 'not_empty'],
    ['a file onto a directory', 'a.txt', 'is_directory'],
  ])('refuses to overwrite %s', async (_case, source, reason) => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'A');
      await mkdir(path.join(root, 'full'));
      await writeFile(path.join(root, 'full/keep.txt'), 'K');
      await mkdir(path.join(root, 'target'));
      await writeFile(path.join(root, 'target/keep.txt'), 'K');
    });
    const before = await snapshotTree(box.root);

    const attempt = move({ source, destination: 'target', overwrite: true });

    await expect(attempt).rejects.toMatchObject({ reason });
    expect(await snapshotTree(box.root)).toEqual(before);
  });

  it('moves a directory with its contents, onto an empty directory only with overwrite', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await mkdir(path.join(root, 'src/deep'), { recursive: true });
      await writeFile(path.join(root, 'src/deep/a.txt'), 'A');
      await mkdir(path.join(root, 'empty'));
    });

    const renamed = await move({ source: 'src', destination: 'lib/src' });
    const replaced = await move({ source: 'lib/src', destination: 'empty', overwrite: true });

    expect(renamed).toEqual({ source: 'src', destination: 'lib/src', overwritten: false });
    expect(replaced.overwritten).toBe(true);
    expect(await read('empty/deep/a.txt')).toBe('A');
    expect((await readdir(box.root)).sort()).toEqual(['empty', 'lib']);
  });

  it('refuses to move a directory into itself, creating nothing on the way', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await mkdir(path.join(root, 'a'));
    });
    const before = await snapshotTree(box.root);

    const attempt = move({ source: 'a', destination: 'a/b/c' });

    await expect(attempt).rejects.toMatchObject({ reason: 'into_itself', correctable: true });
    expect(await snapshotTree(box.root)).toEqual(before);
  });

  it('refuses to move a directory into itself through a symlinked alias of it', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await mkdir(path.join(root, 'a'));
      await symlink('a', path.join(root, 'alias'));
    });
    const before = await snapshotTree(box.root);

    const attempt = move({ source: 'a', destination: 'alias/x' });

    await expect(attempt).rejects.toMatchObject({ reason: 'into_itself' });
    expect(await snapshotTree(box.root)).toEqual(before);
  });

  it('refuses to move an entry onto itself', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'A');
    });

    const attempt = move({ source: 'a.txt', destination: './a.txt', overwrite: true });

    await expect(attempt).rejects.toMatchObject({ reason: 'same_path' });
    expect(await read('a.txt')).toBe('A');
  });

  it('reports a missing source as a recoverable not_found', async () => {
    box = await createSandbox();

    const attempt = move({ source: 'nope.txt', destination: 'b.txt' });

    await expect(attempt).rejects.toMatchObject({ reason: 'not_found', recoverable: true });
  });

  describe('the adversarial fs table', () => {
    const hostile = async ({ root, outside }: { root: string; outside: string }) => {
      await writeFile(path.join(root, 't.txt'), 'INSIDE');
      await writeFile(path.join(outside, 't.txt'), SECRET);
      await symlink(outside, path.join(root, 'link'));
      await symlink(path.join(outside, 't.txt'), path.join(root, 'file-link'));
      await link(path.join(outside, 't.txt'), path.join(root, 'hard.txt'));
      await mkdir(path.join(root, '.git/hooks'), { recursive: true });
      await writeFile(path.join(root, '.git/config'), '[core]\n');
      await writeFile(path.join(root, '.env'), 'TOKEN=1');
      await mkdir(path.join(root, 'cfg/git'), { recursive: true });
      await writeFile(path.join(root, 'cfg/git/config'), '[core]\nhooksPath=x\n');
      await mkdir(path.join(root, '.docker'));
      await writeFile(path.join(root, '.docker/config.json'), '{"auths":{}}');
      await mkdir(path.join(root, 'repo/.git'), { recursive: true });
      await mkdir(path.join(root, '.config'));
      await mkdir(path.join(root, 'conf'));
      await writeFile(path.join(root, 'conf/.env'), 'TOKEN=1');
    };

    it.each([
      ['source parent traversal', '../outside/t.txt', 'x.txt', 'scope_escape'],
      ['destination parent traversal', 't.txt', '../outside/x.txt', 'scope_escape'],
      ['destination prefix collision', 't.txt', '../app-evil/x.txt', 'scope_escape'],
      ['absolute source', '/usr/share/x.txt', 'x.txt', 'scope_escape'],
      ['absolute destination', 't.txt', '/tmp/x.txt', 'scope_escape'],
      [
        'source through a symlinked parent out of the root',
        'link/t.txt',
        'x.txt',
        'symlink_refused',
      ],
      ['destination through a symlinked parent', 't.txt', 'link/x.txt', 'symlink_refused'],
      [
        'destination created under a symlinked parent',
        't.txt',
        'link/new/x.txt',
        'symlink_refused',
      ],
      ['a symlinked source', 'file-link', 'x.txt', 'symlink_refused'],
      ['a hard-linked source', 'hard.txt', 'x.txt', 'hard_link_refused'],
      ['a source in .git', '.git/config', 'x.txt', 'protected_path'],
      ['the .git directory', '.git', 'g', 'protected_path'],
      ['a destination in .git', 't.txt', '.git/hooks/pre-commit', 'protected_path'],
      ['a .env source', '.env', 'env.txt', 'protected_path'],
      ['a .env destination', 't.txt', '.env', 'protected_path'],
      ['a shell startup destination', 't.txt', '.bashrc', 'protected_path'],
      ['a directory holding a .env file', 'conf', 'conf-moved', 'protected_path'],
      ['a directory planting .config/git', 'cfg', '.config', 'protected_path'],
      ['a directory that unfloors a credential file', '.docker', 'dock', 'protected_path'],
      ['a directory holding a repository', 'repo', 'moved-repo', 'protected_path'],
    ])('refuses %s', async (_case, source, destination, reason) => {
      box = await createSandbox({}, hostile);
      const inside = await snapshotTree(box.root);
      const outside = await snapshotTree(box.outside);

      const attempt = move({ source, destination, overwrite: true });

      await expect(attempt).rejects.toMatchObject({ reason });
      expect(await snapshotTree(box.outside)).toEqual(outside);
      expect(await snapshotTree(box.root)).toEqual(inside);
    });
  });
});

describe('move_file with a parent swapped before the rename', () => {
  let box: Sandbox | undefined;
  let jail: Jail | undefined;
  afterEach(async () => {
    await jail?.close();
    jail = undefined;
    await box?.close();
    box = undefined;
  });

  // The arm over its own jail, with `beforeRename` run after every check and before the rename.
  async function moveWith(beforeRename: () => Promise<void>, request: FsMoveRequest) {
    if (box === undefined) throw new Error('no sandbox');
    const spillDir = path.join(box.sandbox, 'spill');
    await mkdir(spillDir, { recursive: true });
    jail = await createJail({
      root: box.root,
      fsScope: 'sandboxed',
      extraRoots: [],
      floor: { stateDir: box.stateDir, spillDir, configFile: path.join(box.sandbox, 'cfg.json') },
    });
    return createMoveFile(jail, { beforeRename })(request);
  }

  it.each([
    ['the source parent', { source: 'd/t.txt', destination: 'moved.txt' }],
    ['the destination parent', { source: 't.txt', destination: 'd/t.txt' }],
  ])('refuses when %s is swapped for a symlink out of the root', async (_case, request) => {
    box = await createSandbox({}, async ({ root, outside }) => {
      await mkdir(path.join(root, 'd'));
      await writeFile(path.join(root, 'd/t.txt'), 'IN-D');
      await writeFile(path.join(root, 't.txt'), 'IN-ROOT');
      await writeFile(path.join(outside, 't.txt'), SECRET);
    });
    const { root, outside } = box;
    const outsideBefore = await snapshotTree(outside);

    const attempt = moveWith(async () => {
      await rename(path.join(root, 'd'), path.join(root, '.d-real'));
      await symlink(outside, path.join(root, 'd'));
    }, request);

    await expect(attempt).rejects.toMatchObject({ reason: 'symlink_refused' });
    expect(await snapshotTree(outside)).toEqual(outsideBefore);
    expect(await snapshotTree(root)).toEqual({
      '.d-real': 'dir',
      '.d-real/t.txt': 'file:IN-D',
      d: `link:${outside}`,
      't.txt': 'file:IN-ROOT',
    });
  });
});

describe('move_file through the registry', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it('replays a journaled move instead of moving again', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'A');
    });
    const registry = createToolRegistry({ tools: [moveFileTool], host: box.host });
    const context: ToolDispatchContext = {
      nodeId: 'node',
      grantedToolIds: new Set(['move_file']),
      config: {},
      toolPolicy: {},
      fsScope: 'sandboxed',
      gateApproved: false,
      journal: { store: createMemoryEffectJournal(), runId: 'run-1' },
    };
    const call = {
      id: 'call-1',
      name: 'move_file',
      args: { source: 'a.txt', destination: 'b.txt' },
    };

    const first = await registry.dispatch(call, context);
    // Run again, the source is gone: only a replay can answer as the first call did.
    const again = await registry.dispatch(call, context);

    expect(first.journal?.status).toBe('settled');
    expect(again.journal?.status).toBe('replayed');
    expect(again.output).toEqual({ source: 'a.txt', destination: 'b.txt', overwritten: false });
    expect(await readdir(box.root)).toEqual(['b.txt']);
  });

  it('is absent from a read-only host', async () => {
    box = await createSandbox({ readOnly: true });

    expect(box.host.fs?.moveFile).toBeUndefined();
    expect(box.host.fs?.makeDirectory).toBeUndefined();
  });
});
