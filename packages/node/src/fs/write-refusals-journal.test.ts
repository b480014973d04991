import { link, mkdir, symlink, writeFile, readFile, unlink, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  type ToolCall,
  type ToolDispatchContext,
  type ToolHost,
} from '@toolhost/core';
import { isRefusedBeforeEffect } from '@toolhost/core/host';
import { createMemoryEffectJournal, type EffectJournal } from '@toolhost/core/journal';
import { createDirectoryTool } from '@toolhost/core/tools';
import { afterEach, describe, expect, it } from 'vitest';

import { createSqliteEffectJournal } from '../journal/create-sqlite-effect-journal.js';
import { createJail, type Jail } from './jail.js';
import { createMakeDirectory } from './make-directory.js';
import { createSandbox, type Sandbox } from './test-support/sandbox.js';

// Issue 37: a write's refusal discards the journal's claim only when nothing was made before it
// (no parent directory created, no file opened for writing); after `createDirs` made a parent,
// the claim is kept and a rerun is refused as effect_unresolved.

function contextFor(store: EffectJournal, toolId: string): ToolDispatchContext {
  return {
    nodeId: 'fs-journal-test',
    grantedToolIds: new Set([toolId]),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    journal: { store, runId: 'run-fs' },
  };
}

const dispatchOn = (host: ToolHost, store: EffectJournal, call: ToolCall) =>
  createToolRegistry({ tools: [...BUILTIN_TOOLS, createDirectoryTool], host })
    .dispatch(call, contextFor(store, call.name))
    .catch((error: unknown) => error);

describe('the fs arm marks only what it refuses before its first effect', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it.each([
    ['a floor path', { path: '.git/config', content: 'x' }, 'protected_path'],
    [
      'an escape with createDirs',
      { path: '../out/x.txt', content: 'x', createDirs: true },
      'scope_escape',
    ],
  ])('marks the jail refusing %s before the walk', async (_case, request, reason) => {
    box = await createSandbox();

    const error = await box.fs.writeFile(request).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ reason });
    expect(isRefusedBeforeEffect(error)).toBe(true);
  });

  it('marks a write refused at its leaf (a hard link) before the file is opened', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'A');
      await link(path.join(root, 'a.txt'), path.join(root, 'b.txt'));
    });

    const error = await box.fs.writeFile({ path: 'b.txt', content: 'x' }).catch((e: unknown) => e);

    expect(error).toMatchObject({ reason: 'hard_link_refused' });
    expect(isRefusedBeforeEffect(error)).toBe(true);
  });

  it('marks an edit refused before its write (no match), and a move refused before it moves', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'alpha');
      await mkdir(path.join(root, 'd'));
    });

    const edit = await box.fs
      .editFile({ path: 'a.txt', edits: [{ oldText: 'omega', newText: 'x' }] })
      .catch((caught: unknown) => caught);
    const move = await box.fs
      .moveFile({ source: 'd', destination: 'd/inner' })
      .catch((caught: unknown) => caught);

    expect(edit).toMatchObject({ code: 'tool_args_invalid' });
    expect(isRefusedBeforeEffect(edit)).toBe(true);
    expect(move).toMatchObject({ reason: 'into_itself' });
    expect(isRefusedBeforeEffect(move)).toBe(true);
    expect(await readFile(path.join(box.root, 'a.txt'), 'utf8')).toBe('alpha');
  });

  it('leaves unmarked what fails after the move began (the destination exists)', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'A');
      await writeFile(path.join(root, 'b.txt'), 'B');
    });

    const move = await box.fs
      .moveFile({ source: 'a.txt', destination: 'b.txt' })
      .catch((caught: unknown) => caught);

    // `link` is the check and the move in one call: its refusal is not provably before.
    expect(move).toMatchObject({ reason: 'exists' });
    expect(isRefusedBeforeEffect(move)).toBe(false);
  });

  it.each(['memory', 'sqlite'] as const)(
    'a journaled write refused at a hard link (%s journal) discards: the rerun is judged afresh',
    async (kind) => {
      box = await createSandbox({}, async ({ root }) => {
        await writeFile(path.join(root, 'a.txt'), 'A');
        await link(path.join(root, 'a.txt'), path.join(root, 'b.txt'));
      });
      const sqlite =
        kind === 'sqlite'
          ? await createSqliteEffectJournal({ file: path.join(box.sandbox, 'effects.db') })
          : undefined;
      const store = sqlite ?? createMemoryEffectJournal();
      const call: ToolCall = {
        id: 'call-write-1',
        name: 'write_file',
        args: { path: 'b.txt', content: 'new' },
      };
      try {
        const first = await dispatchOn(box.host, store, call);
        const again = await dispatchOn(box.host, store, call);
        await unlink(path.join(box.root, 'a.txt'));
        const fixed = await dispatchOn(box.host, store, call);

        expect(first).toMatchObject({ code: 'tool_denied', reason: 'hard_link_refused' });
        expect(again).toMatchObject({ code: 'tool_denied', reason: 'hard_link_refused' });
        // Nothing was written, so once the cause is gone the same call may run.
        expect(fixed).toMatchObject({ journal: { status: 'settled' } });
        expect(await readFile(path.join(box.root, 'b.txt'), 'utf8')).toBe('new');
      } finally {
        await sqlite?.close();
      }
    },
  );
});

describe('create_directory refused after the jail made its parents', () => {
  let box: Sandbox | undefined;
  let jail: Jail | undefined;
  afterEach(async () => {
    await jail?.close();
    jail = undefined;
    await box?.close();
    box = undefined;
  });

  // A host whose create_directory plants a symlink at the leaf just before its `mkdir` (the
  // race the arm guards against), so the `mkdir` finds it and the arm refuses.
  async function racedHost(sandbox: Sandbox): Promise<ToolHost> {
    const spillDir = path.join(sandbox.sandbox, 'spill');
    await mkdir(spillDir);
    jail = await createJail({
      root: sandbox.root,
      fsScope: 'sandboxed',
      extraRoots: [],
      floor: {
        stateDir: sandbox.stateDir,
        spillDir,
        configFile: path.join(sandbox.sandbox, 'cfg.json'),
      },
    });
    let planted = false;
    const makeDirectory = createMakeDirectory(jail, {
      beforeMkdir: async () => {
        if (planted) return;
        planted = true;
        await symlink(sandbox.outside, path.join(sandbox.root, 'a/b/leaf'));
      },
    });
    return { fs: { makeDirectory } as NonNullable<ToolHost['fs']> };
  }

  const CALL: ToolCall = {
    id: 'call-mkdir-1',
    name: 'create_directory',
    args: { path: 'a/b/leaf' },
  };

  it.each(['memory', 'sqlite'] as const)(
    'keeps the claim (%s journal): the rerun is effect_unresolved, not a fresh attempt',
    async (kind) => {
      box = await createSandbox();
      const host = await racedHost(box);
      const sqlite =
        kind === 'sqlite'
          ? await createSqliteEffectJournal({ file: path.join(box.sandbox, 'effects.db') })
          : undefined;
      const store = sqlite ?? createMemoryEffectJournal();
      try {
        const first = await dispatchOn(host, store, CALL);

        expect(first).toMatchObject({ reason: 'symlink_refused' });
        expect(isRefusedBeforeEffect(first)).toBe(false);
        // The parents the walk made are the effect that had already begun.
        expect((await stat(path.join(box.root, 'a/b'))).isDirectory()).toBe(true);

        const again = await dispatchOn(host, store, CALL);

        expect(again).toMatchObject({ reason: 'effect_unresolved' });
      } finally {
        await sqlite?.close();
      }
    },
  );

  it('discards the claim when the parents already existed: nothing was made', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await mkdir(path.join(root, 'a/b'), { recursive: true });
    });
    const host = await racedHost(box);
    const store = createMemoryEffectJournal();

    const first = await dispatchOn(host, store, CALL);
    const again = await dispatchOn(host, store, CALL);

    expect(first).toMatchObject({ reason: 'symlink_refused' });
    expect(isRefusedBeforeEffect(first)).toBe(true);
    // Judged afresh: the symlink is still there, so the same refusal, not effect_unresolved.
    expect(again).toMatchObject({ reason: 'symlink_refused' });
  });
});
