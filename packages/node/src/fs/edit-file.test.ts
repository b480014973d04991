import { spawnSync } from 'node:child_process';
import {
  chmod,
  link,
  mkdir,
  readdir,
  readFile,
  rename,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import {
  createToolRegistry,
  ToolArgsInvalidError,
  ToolExecutionError,
  type ToolApprovalRequest,
  type ToolDispatchContext,
} from '@toolhost/core';
import type { FsCapability, FsEditRequest } from '@toolhost/core/host';
import { createMemoryEffectJournal } from '@toolhost/core/journal';
import { editFileTool } from '@toolhost/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditFile } from './edit-file.js';
import type { Jail } from './jail.js';
import { MAX_READ_BYTES } from './read-file.js';
import { createSandbox, snapshotTree, createSandboxJail } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

const SECRET = 'OUTSIDE-SECRET';

describe('edit_file on disk', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  const edit = (request: FsEditRequest) => {
    const fs = box?.fs as Required<FsCapability>;
    return fs.editFile(request);
  };

  it('replaces the text, keeps the mode, returns the diff and leaves no temp file', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
      await chmod(path.join(root, 'a.txt'), 0o640);
    });

    const result = await edit({ path: 'a.txt', edits: [{ oldText: 'two', newText: 'TWO' }] });

    expect(result).toEqual({
      path: 'a.txt',
      replacements: 1,
      diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
    });
    expect(await readFile(path.join(box.root, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect((await stat(path.join(box.root, 'a.txt'))).mode & 0o777).toBe(0o640);
    expect(await readdir(box.root)).toEqual(['a.txt']);
  });

  it('writes nothing when any edit does not match, naming the edit and not its text', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'alpha beta beta\n');
    });

    const missing = edit({
      path: 'a.txt',
      edits: [
        { oldText: 'alpha', newText: 'ALPHA' },
        { oldText: 'gamma-canary', newText: 'x' },
      ],
    });
    await expect(missing).rejects.toBeInstanceOf(ToolArgsInvalidError);
    await expect(missing).rejects.toThrow(
      /^tool edit_file args invalid: edits\.1\.oldText \(not found\)$/,
    );
    // Started only now: a rejection that settles before anything awaits it is unhandled.
    const ambiguous = edit({ path: 'a.txt', edits: [{ oldText: 'beta', newText: 'x' }] });
    await expect(ambiguous).rejects.toThrow('edits.0.oldText (found 2 times)');
    expect(await readFile(path.join(box.root, 'a.txt'), 'utf8')).toBe('alpha beta beta\n');
  });

  it('edits a CRLF file with LF edits and keeps CRLF and the final newline', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'w.txt'), 'a\r\nb\r\nc\r\n');
    });

    await edit({
      path: 'w.txt',
      edits: [
        { oldText: 'a\nb\n', newText: 'A\nB\nB2\n' },
        { oldText: 'c\r\n', newText: 'C' },
      ],
    });

    expect(await readFile(path.join(box.root, 'w.txt'), 'utf8')).toBe('A\r\nB\r\nB2\r\nC\r\n');
  });

  it('deletes text with an empty newText and replaces every occurrence with replaceAll', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'x\n// drop\ny\nx\n');
    });

    const result = await edit({
      path: 'a.txt',
      edits: [
        { oldText: '// drop\n', newText: '' },
        { oldText: 'x', newText: 'z', replaceAll: true },
      ],
    });

    expect(result).toMatchObject({ replacements: 3 });
    expect(await readFile(path.join(box.root, 'a.txt'), 'utf8')).toBe('z\ny\nz\n');
  });

  it('returns the diff of a dry run and writes nothing', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'keep\n');
    });
    const before = await stat(path.join(box.root, 'a.txt'));

    const result = await edit({
      path: 'a.txt',
      edits: [{ oldText: 'keep', newText: 'changed' }],
      dryRun: true,
    });

    expect(result).toMatchObject({ replacements: 1, diff: expect.stringContaining('+changed') });
    expect(await readFile(path.join(box.root, 'a.txt'), 'utf8')).toBe('keep\n');
    expect((await stat(path.join(box.root, 'a.txt'))).mtimeMs).toBe(before.mtimeMs);
    expect(await readdir(box.root)).toEqual(['a.txt']);
  });

  it('is absent on a read-only host', async () => {
    box = await createSandbox({ readOnly: true });

    expect(box.host.fs?.editFile).toBeUndefined();
  });

  it.each([
    ['a binary file', Buffer.from([0x61, 0x00, 0x62]), 'binary'],
    ['a file that is not UTF-8', Buffer.from([0x61, 0xff, 0x62]), 'not_utf8'],
    ['a file over the read cap', Buffer.alloc(MAX_READ_BYTES + 1, 0x61), 'too_large'],
  ])('refuses %s', async (_case, bytes, reason) => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'f'), bytes);
    });

    const attempt = edit({ path: 'f', edits: [{ oldText: 'a', newText: 'b' }] });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_failed', reason });
  });
});

describe('edit_file under the jail', () => {
  let box: Sandbox | undefined;
  let outsideBefore: Record<string, string> = {};
  afterEach(async () => {
    if (box !== undefined) expect(await snapshotTree(box.outside)).toEqual(outsideBefore);
    await box?.close();
    box = undefined;
  });

  it.each([
    ['parent traversal', '../outside/t.txt', 'scope_escape'],
    ['an absolute path outside', 'ABS_OUTSIDE', 'scope_escape'],
    ['a symlink as the file', 'leaf-link.txt', 'symlink_refused'],
    ['a symlinked directory out of the root', 'out/t.txt', 'symlink_refused'],
    ['a hard link to a file outside', 'hard.txt', 'hard_link_refused'],
    ['the read floor (.env)', '.env', 'protected_path'],
    ['the read floor (a private key)', 'keys/id_ed25519', 'protected_path'],
    ['the write floor (.git)', '.git/HEAD', 'protected_path'],
    ['the write floor (a shell startup file)', '.bashrc', 'protected_path'],
    ['the write floor (the config file)', 'toolhost.config.json', 'protected_path'],
    ['a symlink alias into .git', 'alias/HEAD', 'protected_path'],
  ])('refuses %s and touches nothing outside', async (_case, requested, reason) => {
    box = await createSandbox({}, async ({ root, outside }) => {
      await writeFile(path.join(outside, 't.txt'), SECRET);
      await mkdir(path.join(root, '.git'));
      await mkdir(path.join(root, 'keys'));
      for (const name of [
        '.env',
        'keys/id_ed25519',
        '.git/HEAD',
        '.bashrc',
        'toolhost.config.json',
      ])
        await writeFile(path.join(root, name), SECRET);
      await symlink(path.join(outside, 't.txt'), path.join(root, 'leaf-link.txt'));
      await symlink(outside, path.join(root, 'out'));
      await symlink(path.join(root, '.git'), path.join(root, 'alias'));
      await link(path.join(outside, 't.txt'), path.join(root, 'hard.txt'));
    });
    outsideBefore = await snapshotTree(box.outside);
    const target = requested === 'ABS_OUTSIDE' ? path.join(box.outside, 't.txt') : requested;
    const fs = box.fs as Required<FsCapability>;

    // One at a time: a second call started alongside would reject before its handler is on.
    for (const dryRun of [false, true]) {
      const attempt = fs.editFile({
        path: target,
        edits: [{ oldText: SECRET, newText: 'pwned' }],
        dryRun,
      });
      await expect(attempt).rejects.toMatchObject({ code: 'tool_denied', reason });
    }
    for (const name of ['.env', '.git/HEAD', '.bashrc', 'toolhost.config.json'])
      expect(await readFile(path.join(box.root, name), 'utf8')).toBe(SECRET);
  });

  it.each([
    ['a directory', 'dir', 'is_directory'],
    ['a FIFO', 'fifo', 'unsupported_file_type'],
    ['a missing file', 'missing.txt', 'not_found'],
  ])('fails on %s without hanging', async (_case, requested, reason) => {
    box = await createSandbox({}, async ({ root }) => {
      await mkdir(path.join(root, 'dir'));
      spawnSync('mkfifo', [path.join(root, 'fifo')]);
    });
    outsideBefore = await snapshotTree(box.outside);
    const fs = box.fs as Required<FsCapability>;

    const attempt = fs.editFile({ path: requested, edits: [{ oldText: 'a', newText: 'b' }] });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_failed', reason });
  });
});

describe('edit_file with a concurrent writer', () => {
  let box: Sandbox | undefined;
  let jail: Jail | undefined;
  afterEach(async () => {
    await jail?.close();
    jail = undefined;
    await box?.close();
    box = undefined;
  });

  // The arm over its own jail, with `beforeWrite` run between its read and its write.
  async function editWith(
    beforeWrite: () => Promise<void>,
    request: FsEditRequest,
  ): Promise<unknown> {
    if (box === undefined) throw new Error('no sandbox');
    const spillDir = path.join(box.sandbox, 'spill');
    await mkdir(spillDir, { recursive: true });
    jail = await createSandboxJail(box, spillDir);
    return createEditFile(jail, { beforeWrite })(request);
  }

  const ONE_EDIT = { path: 'd/t.txt', edits: [{ oldText: 'mine', newText: 'MINE' }] };

  it.each([
    [
      'writes the file in place, same size',
      async (file: string) => writeFile(file, 'theirs mine\n'),
    ],
    [
      'replaces it by rename',
      async (file: string) => {
        await writeFile(`${file}.new`, 'theirs: mine\n');
        await rename(`${file}.new`, file);
      },
    ],
    ['appends to it', async (file: string) => writeFile(file, 'more\n', { flag: 'a' })],
    ['deletes it', async (file: string) => unlink(file)],
  ])(
    'refuses, keeping the other writer’s content, when another writer %s',
    async (_case, write) => {
      box = await createSandbox({}, async ({ root }) => {
        await mkdir(path.join(root, 'd'));
        await writeFile(path.join(root, 'd/t.txt'), 'ours: mine\n');
      });
      const file = path.join(box.root, 'd/t.txt');
      let theirs: string | undefined;

      const attempt = editWith(async () => {
        await write(file);
        theirs = await readFile(file, 'utf8').catch(() => undefined);
      }, ONE_EDIT);

      await expect(attempt).rejects.toBeInstanceOf(ToolExecutionError);
      await expect(attempt).rejects.toMatchObject({ reason: 'file_changed', correctable: true });
      expect(await readFile(file, 'utf8').catch(() => undefined)).toBe(theirs);
      expect(
        (await readdir(path.join(box.root, 'd'))).filter((name) => name.includes('toolhost-tmp')),
      ).toEqual([]);
    },
  );

  it('refuses when the file is swapped for a symlink out of the root after the read', async () => {
    box = await createSandbox({}, async ({ root, outside }) => {
      await mkdir(path.join(root, 'd'));
      await writeFile(path.join(root, 'd/t.txt'), 'ours: mine\n');
      await writeFile(path.join(outside, 't.txt'), SECRET);
    });
    const { root, outside } = box;
    const before = await snapshotTree(outside);

    const attempt = editWith(async () => {
      await unlink(path.join(root, 'd/t.txt'));
      await symlink(path.join(outside, 't.txt'), path.join(root, 'd/t.txt'));
    }, ONE_EDIT);

    await expect(attempt).rejects.toMatchObject({ reason: 'file_changed' });
    expect(await snapshotTree(outside)).toEqual(before);
  });

  it('writes into the directory it read, even when that directory is swapped for a symlink out', async () => {
    box = await createSandbox({}, async ({ root, outside }) => {
      await mkdir(path.join(root, 'd'));
      await writeFile(path.join(root, 'd/t.txt'), 'ours: mine\n');
      await writeFile(path.join(outside, 't.txt'), 'ours: mine\n');
    });
    const { root, outside } = box;
    const before = await snapshotTree(outside);

    await editWith(async () => {
      await rename(path.join(root, 'd'), path.join(root, 'd-moved'));
      await symlink(outside, path.join(root, 'd'));
    }, ONE_EDIT);

    expect(await snapshotTree(outside)).toEqual(before);
    expect(await readFile(path.join(root, 'd-moved/t.txt'), 'utf8')).toBe('ours: MINE\n');
    expect(await readdir(path.join(root, 'd-moved'))).toEqual(['t.txt']);
  });

  it('writes into the directory it read when another directory takes its name', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await mkdir(path.join(root, 'd'));
      await writeFile(path.join(root, 'd/t.txt'), 'ours: mine\n');
    });
    const { root } = box;

    await editWith(async () => {
      await rename(path.join(root, 'd'), path.join(root, 'd-moved'));
      await mkdir(path.join(root, 'd'));
      await writeFile(path.join(root, 'd/t.txt'), 'other: mine\n');
    }, ONE_EDIT);

    expect(await readFile(path.join(root, 'd-moved/t.txt'), 'utf8')).toBe('ours: MINE\n');
    expect(await readFile(path.join(root, 'd/t.txt'), 'utf8')).toBe('other: mine\n');
  });
});

describe('edit_file through the registry', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  function context(overrides: Partial<ToolDispatchContext> = {}): ToolDispatchContext {
    return {
      nodeId: 'node-1',
      grantedToolIds: new Set(['edit_file']),
      config: {},
      toolPolicy: {},
      fsScope: 'sandboxed',
      gateApproved: false,
      ...overrides,
    };
  }

  it('replays a journaled edit instead of editing again', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'count: 1\n');
    });
    const registry = createToolRegistry({ tools: [editFileTool], host: box.host });
    const ctx = context({ journal: { store: createMemoryEffectJournal(), runId: 'run-1' } });
    const call = {
      id: 'call-1',
      name: 'edit_file',
      args: { path: 'a.txt', edits: [{ oldText: 'count: 1', newText: 'count: 1 1' }] },
    };

    const first = await registry.dispatch(call, ctx);
    const again = await registry.dispatch(call, ctx);

    expect(first.journal?.status).toBe('settled');
    expect(again.journal?.status).toBe('replayed');
    expect(again.output).toEqual(first.output);
    expect(await readFile(path.join(box.root, 'a.txt'), 'utf8')).toBe('count: 1 1\n');
  });

  it('asks approval with the edit and no secret before the host is touched, then touches it once', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, '.npmrc.example'), 'registry=https://r.example\n');
    });
    const fs = box.fs as Required<FsCapability>;
    const hostCalls: string[] = [];
    const counted: FsCapability = {
      readFile: (...args) => (hostCalls.push('readFile'), fs.readFile(...args)),
      listDirectory: (...args) => (hostCalls.push('listDirectory'), fs.listDirectory(...args)),
      editFile: (...args) => (hostCalls.push('editFile'), fs.editFile(...args)),
    };
    const registry = createToolRegistry({
      tools: [editFileTool],
      host: { ...box.host, fs: counted },
    });
    const requests: ToolApprovalRequest[] = [];
    const callsAtConfirm: number[] = [];
    const token = 'npm_abcdefghijklmnopqrstuvwxyz0123456789';
    const call = {
      id: 'call-1',
      name: 'edit_file',
      args: {
        path: '.npmrc.example',
        edits: [
          { oldText: 'registry=https://r.example', newText: `//r.example/:_authToken=${token}` },
        ],
      },
    };

    await registry.dispatch(
      call,
      context({
        approval: {
          confirm: async (request) => {
            requests.push(request);
            callsAtConfirm.push(hostCalls.length);
            return { outcome: 'approve' };
          },
        },
      }),
    );

    expect(callsAtConfirm).toEqual([0]);
    expect(hostCalls).toEqual(['editFile']);
    expect(requests[0]?.preview.change).toContain('- registry=https://r.example');
    expect(JSON.stringify(requests[0]?.preview)).not.toContain(token);
    expect(await readFile(path.join(box.root, '.npmrc.example'), 'utf8')).toContain(token);
  });

  it('runs a dry run without approval and writes nothing, even where approval would refuse', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(path.join(root, 'a.txt'), 'x\n');
    });
    const registry = createToolRegistry({ tools: [editFileTool], host: box.host });
    let asked = 0;
    const ctx = context({
      approval: {
        confirm: async () => {
          asked += 1;
          return { outcome: 'reject' };
        },
      },
    });
    const args = { path: 'a.txt', edits: [{ oldText: 'x', newText: 'y' }] };

    const dry = await registry.dispatch(
      { id: 'c1', name: 'edit_file', args: { ...args, dryRun: true } },
      ctx,
    );
    const real = registry.dispatch({ id: 'c2', name: 'edit_file', args }, ctx);

    expect(dry.output).toMatchObject({ replacements: 1, diff: expect.stringContaining('+y') });
    await expect(real).rejects.toMatchObject({ reason: 'user_rejected' });
    expect(asked).toBe(1);
    expect(await readFile(path.join(box.root, 'a.txt'), 'utf8')).toBe('x\n');
  });
});
