import { mkdir, rename, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import { createMemoryEffectJournal } from '@toolhost/core/journal';
import { createDirectoryTool } from '@toolhost/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createJail, type Jail } from './jail.js';
import { createMakeDirectory } from './make-directory.js';
import { createSandbox, snapshotTree } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

describe('create_directory on disk', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  const make = (requested: string) => {
    if (box === undefined) throw new Error('no sandbox');
    return box.fs.makeDirectory({ path: requested });
  };

  it('creates a directory and its missing parents, like mkdir -p', async () => {
    box = await createSandbox();

    const made = await make('a/b/c');

    expect(made).toEqual({ path: 'a/b/c', created: true });
    expect((await stat(path.join(box.root, 'a/b/c'))).isDirectory()).toBe(true);
  });

  it('is idempotent: an existing directory, or the root, is reported with created false', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await mkdir(path.join(root, 'a/b'), { recursive: true });
      await writeFile(path.join(root, 'a/b/keep.txt'), 'K');
    });
    const before = await snapshotTree(box.root);

    const again = await make('a/b');
    const root = await make('.');

    expect(again).toEqual({ path: 'a/b', created: false });
    expect(root).toEqual({ path: '.', created: false });
    expect(await snapshotTree(box.root)).toEqual(before);
  });

  it('refuses a path held by a file, with a correctable error', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a'), 'A');
    });

    const leaf = make('a');
    const below = make('a/b');

    await expect(leaf).rejects.toMatchObject({ reason: 'not_a_directory', correctable: true });
    await expect(below).rejects.toMatchObject({ reason: 'not_a_directory' });
  });

  describe('the adversarial fs table', () => {
    it.each([
      ['parent traversal', '../outside/new', 'scope_escape'],
      ['a prefix collision', '../app-evil', 'scope_escape'],
      ['an absolute path', '/tmp/toolhost-new', 'scope_escape'],
      ['a symlinked parent out of the root', 'link/new', 'symlink_refused'],
      ['a missing level under a symlinked parent', 'link/new/deeper', 'symlink_refused'],
      ['a symlink at the leaf', 'link', 'symlink_refused'],
      ['a symlink to an in-root directory at the leaf', 'alias', 'symlink_refused'],
      ['the .git directory', '.git', 'protected_path'],
      ['a directory under .git', '.git/hooks', 'protected_path'],
      ['a directory under .git through an alias', 'git-alias/hooks', 'protected_path'],
      ['a credential store', '.ssh', 'protected_path'],
      ['a .env directory', 'app/.env', 'protected_path'],
      ['a directory under .config/git', '.config/git', 'protected_path'],
    ])('refuses %s', async (_case, requested, reason) => {
      box = await createSandbox({}, async ({ root, outside }) => {
        await symlink(outside, path.join(root, 'link'));
        await mkdir(path.join(root, 'real'));
        await symlink('real', path.join(root, 'alias'));
        await mkdir(path.join(root, '.git'));
        await symlink('.git', path.join(root, 'git-alias'));
        await mkdir(path.join(root, '.config'));
      });
      const inside = await snapshotTree(box.root);
      const outside = await snapshotTree(box.outside);

      const attempt = make(requested);

      await expect(attempt).rejects.toMatchObject({ reason });
      expect(await snapshotTree(box.outside)).toEqual(outside);
      expect(await snapshotTree(box.root)).toEqual(inside);
    });
  });
});

describe('create_directory with its parent swapped before the mkdir', () => {
  let box: Sandbox | undefined;
  let jail: Jail | undefined;
  afterEach(async () => {
    await jail?.close();
    jail = undefined;
    await box?.close();
    box = undefined;
  });

  it('refuses, creating nothing inside or outside', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await mkdir(path.join(root, 'd'));
    });
    const { root, outside } = box;
    const spillDir = path.join(box.sandbox, 'spill');
    await mkdir(spillDir);
    jail = await createJail({
      root,
      fsScope: 'sandboxed',
      extraRoots: [],
      floor: { stateDir: box.stateDir, spillDir, configFile: path.join(box.sandbox, 'cfg.json') },
    });
    const makeDirectory = createMakeDirectory(jail, {
      beforeMkdir: async () => {
        await rename(path.join(root, 'd'), path.join(root, '.d-real'));
        await symlink(outside, path.join(root, 'd'));
      },
    });

    const attempt = makeDirectory({ path: 'd/new' });

    await expect(attempt).rejects.toMatchObject({ reason: 'symlink_refused' });
    expect(await snapshotTree(outside)).toEqual({});
    expect(await snapshotTree(root)).toEqual({ '.d-real': 'dir', d: `link:${outside}` });
  });
});

describe('create_directory through the registry', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it('journals a creation and replays it', async () => {
    box = await createSandbox();
    const registry = createToolRegistry({ tools: [createDirectoryTool], host: box.host });
    const context: ToolDispatchContext = {
      nodeId: 'node',
      grantedToolIds: new Set(['create_directory']),
      config: {},
      toolPolicy: {},
      fsScope: 'sandboxed',
      gateApproved: false,
      journal: { store: createMemoryEffectJournal(), runId: 'run-1' },
    };
    const call = { id: 'call-1', name: 'create_directory', args: { path: 'a/b' } };

    const first = await registry.dispatch(call, context);
    const again = await registry.dispatch(call, context);

    expect(first.output).toEqual({ path: 'a/b', created: true });
    expect(again.journal?.status).toBe('replayed');
    // A re-run would say created: false; the replay answers as the first call did.
    expect(again.output).toEqual({ path: 'a/b', created: true });
  });
});
