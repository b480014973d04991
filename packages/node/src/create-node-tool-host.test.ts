import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolRegistry, unwrapUntrusted } from '@toolhost/core';
import {
  listDirectoryTool,
  readFileTool,
  readMediaTool,
  writeFileTool,
} from '@toolhost/core/tools';
import type { ToolDispatchContext, Untrusted } from '@toolhost/core';
import type { DurableMediaPart } from '@toolhost/core/host';
import { createNodeToolHost } from './create-node-tool-host.js';
import { createSandbox } from './fs/test-support/sandbox.js';
import type { NodeMediaStore } from './media-store/create-media-store.js';
import type { Sandbox } from './fs/test-support/sandbox.js';

describe('createNodeToolHost', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it('assembles the fs, output-store and media arms, and the host preflight', async () => {
    box = await createSandbox();

    // `forCall`: each dispatch's view of the host, holding that call's spill budget;
    // `preflight`: the host's refusals judged before anyone is asked.
    expect(Object.keys(box.host).sort()).toEqual([
      'forCall',
      'fs',
      'media',
      'outputStore',
      'preflight',
    ]);
    expect(Object.isFrozen(box.host)).toBe(true);
  });

  it('gives a read-only host no write arm', async () => {
    box = await createSandbox({ readOnly: true });

    expect(box.host.fs?.writeFile).toBeUndefined();
  });

  it('reads and writes declared extra roots in the project tier', async () => {
    box = await createSandbox(
      ({ sandbox }) => ({ fsScope: 'project', extraRoots: [path.join(sandbox, 'extra')] }),
      async ({ sandbox }) => {
        await mkdir(path.join(sandbox, 'extra'));
        await writeFile(path.join(sandbox, 'extra', 'shared.txt'), 'SHARED');
      },
    );
    const extra = path.join(box.sandbox, 'extra');

    const read = await box.fs.readFile({ path: path.join(extra, 'shared.txt') });
    const written = await box.fs.writeFile({ path: path.join(extra, 'new.txt'), content: 'N' });

    expect(read.content).toBe('SHARED');
    expect(written.path).toBe(path.join(extra, 'new.txt'));
    expect(await readFile(path.join(extra, 'new.txt'), 'utf8')).toBe('N');
  });

  it('refuses an extra root in the sandboxed tier', async () => {
    box = await createSandbox({}, async ({ sandbox }) => {
      await mkdir(path.join(sandbox, 'extra'));
      await writeFile(path.join(sandbox, 'extra', 'shared.txt'), 'SHARED');
    });

    const attempt = box.fs.readFile({ path: path.join(box.sandbox, 'extra', 'shared.txt') });

    await expect(attempt).rejects.toMatchObject({ reason: 'scope_escape' });
  });

  it('keeps the floor in the full tier', async () => {
    box = await createSandbox({ fsScope: 'full' }, async ({ outside }) => {
      await writeFile(path.join(outside, 'plain.txt'), 'PLAIN');
      await writeFile(path.join(outside, '.npmrc'), 'FAKE-SECRET');
    });

    const plain = await box.fs.readFile({ path: path.join(box.outside, 'plain.txt') });
    const secret = box.fs.readFile({ path: path.join(box.outside, '.npmrc') });

    expect(plain.content).toBe('PLAIN');
    await expect(secret).rejects.toMatchObject({ reason: 'protected_path' });
    await expect(box.fs.readFile({ path: '/proc/self/environ' })).rejects.toMatchObject({
      reason: 'protected_path',
    });
  });

  it('keeps a state directory inside the root on both floors', async () => {
    box = await createSandbox(({ sandbox }) => ({ stateDir: path.join(sandbox, 'app', 'state') }));
    const stored = await (box.host.media as NodeMediaStore).put(new Uint8Array([1, 2, 3]), {
      mimeType: 'application/octet-stream',
      scopes: [],
    });
    const object = path.join(box.root, 'state', 'media', `${stored.handle.slice(15)}.bin`);

    const listing = await box.fs.listDirectory({ path: '.', recursive: true });

    expect(listing.entries).toEqual([]);
    await expect(box.fs.readFile({ path: object })).rejects.toMatchObject({
      reason: 'protected_path',
    });
    await expect(box.fs.writeFile({ path: 'state/x.txt', content: 'x' })).rejects.toMatchObject({
      reason: 'protected_path',
    });
  });

  it('close is idempotent and sweeps the run spill', async () => {
    box = await createSandbox();
    const spilled = await box.host.outputStore?.spill('x', { maxBytes: 1, maxLines: 1 });

    await box.close();
    await box.close();

    await expect(readFile(spilled?.ref ?? '')).rejects.toMatchObject({ code: 'ENOENT' });
    box = undefined;
  });

  it('releases what it already made when a later part fails: no spill directory, no descriptor', async () => {
    const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-host-fail-')));
    try {
      await mkdir(path.join(base, 'app'));
      const stateDir = path.join(base, 'state');
      const openBefore = (await readdir('/proc/self/fd')).length;

      // The process arm refuses this after the output store and the jail exist.
      for (let attempt = 0; attempt < 20; attempt += 1) {
        await expect(
          createNodeToolHost({
            root: path.join(base, 'app'),
            stateDir,
            runId: `failing-${attempt}`,
            process: { killGraceMs: -1 },
          }),
        ).rejects.toThrow(TypeError);
      }

      expect(await readdir(path.join(stateDir, 'spill'))).toEqual([]);
      expect((await readdir('/proc/self/fd')).length).toBeLessThanOrEqual(openBefore);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('serves the built-in fs tools and read_media through the registry', async () => {
    box = await createSandbox({}, async ({ root }) => {
      await writeFile(
        path.join(root, 'image.png'),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
      );
    });
    const registry = createToolRegistry({
      tools: [readFileTool, writeFileTool, listDirectoryTool, readMediaTool],
      host: box.host,
    });
    const context = (mediaScope: string): ToolDispatchContext => ({
      nodeId: 'node',
      grantedToolIds: new Set(['read_file', 'write_file', 'list_directory', 'read_media']),
      config: {},
      toolPolicy: {},
      fsScope: 'sandboxed',
      gateApproved: false,
      mediaScope,
    });

    const read = await registry.dispatch(
      { id: '1', name: 'read_file', args: { path: 'image.png' } },
      context('run:a'),
    );
    const handle = attachments(read.mediaAttachments)[0]?.handle ?? '';
    const media = await registry.dispatch(
      { id: '2', name: 'read_media', args: { handle } },
      context('run:a'),
    );

    expect(handle).toMatch(/^media:\/\/sha256-[0-9a-f]{64}$/);
    expect(attachments(media.mediaAttachments)[0]?.data?.byteLength).toBe(8);
    await expect(
      registry.dispatch({ id: '3', name: 'read_media', args: { handle } }, context('run:b')),
    ).rejects.toMatchObject({ reason: 'media_scope_denied' });
    await expect(
      registry.dispatch(
        { id: '4', name: 'read_file', args: { path: '../outside' } },
        context('run:a'),
      ),
    ).rejects.toMatchObject({ code: 'tool_denied', reason: 'scope_escape', recoverable: true });
  });
});

function attachments(
  parts: Untrusted<readonly DurableMediaPart[]> | undefined,
): readonly DurableMediaPart[] {
  return parts === undefined ? [] : unwrapUntrusted(parts);
}
