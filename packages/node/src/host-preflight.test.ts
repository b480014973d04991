import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createToolRegistry,
  ToolPolicyError,
  type ToolApprovalRequest,
  type ToolDispatchContext,
} from '@toolhost/core';
import { httpRequestTool, moveFileTool, writeFileTool } from '@toolhost/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, snapshotTree, type Sandbox } from './fs/test-support/sandbox.js';

// Paths a model can shape, and the workspace it can shape them in: symlinked directories into
// `.git`, out of the root and back, a dangling one, the floor spelled several ways.
const CORPUS: readonly string[] = [
  'notes.txt',
  'deep/new/file.txt',
  '.git/hooks/pre-commit',
  '.git/config',
  './.git/../.git/HEAD',
  'src/../.git/hooks/post-checkout',
  '.GIT/hooks/pre-commit',
  '.ssh/authorized_keys',
  '.bashrc',
  'sub/.bashrc',
  '.env',
  'toolhost.config.json',
  '../outside/x.txt',
  '/etc/passwd',
  'alias-git/hooks/pre-push',
  'alias-git/config',
  'alias-out/x.txt',
  'alias-back/x.txt',
  'alias-hooks/pre-commit',
  'dangling/x.txt',
  'src/file.ts',
  'src',
  '.',
  'a\0b',
];

async function workspace({ root, outside }: { root: string; outside: string }): Promise<void> {
  await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
  await writeFile(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await mkdir(path.join(root, 'src'));
  await mkdir(path.join(root, 'sub'));
  await symlink('.git', path.join(root, 'alias-git'));
  await symlink('.git/hooks', path.join(root, 'alias-hooks'));
  await symlink(outside, path.join(root, 'alias-out'));
  await symlink(path.join(root, 'src'), path.join(root, 'alias-back'));
  await symlink(path.join(root, 'missing'), path.join(root, 'dangling'));
}

function reasonOf(error: unknown): string {
  if (error instanceof ToolPolicyError) return error.reason;
  return 'other';
}

describe('the Node host preflight (decide before asking)', () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.close();
    box = undefined;
  });

  it('refuses only what the jail refuses, with its reason, and changes nothing', async () => {
    box = await createSandbox({}, workspace);
    const preflight = box.host.preflight;
    expect(preflight).toBeTypeOf('function');
    const before = await snapshotTree(box.sandbox);

    const judged = CORPUS.map((requested) => {
      try {
        preflight?.({ toolId: 'write_file', action: 'fs_write', target: { path: requested } });
        return 'allowed';
      } catch (error) {
        return reasonOf(error);
      }
    });
    // Judging touched nothing: no directory made, no file opened for writing.
    expect(await snapshotTree(box.sandbox)).toEqual(before);

    for (const [index, requested] of CORPUS.entries()) {
      const verdict = judged[index];
      if (verdict === 'allowed') continue;
      // Every refusal before asking is one the write itself would have met.
      const written = await box.fs
        .writeFile({ path: requested, content: 'x', createDirs: true })
        .then(
          () => 'written',
          (error: unknown) => reasonOf(error),
        );
      expect({ requested, written }).toEqual({ requested, written: verdict });
    }
    expect(Object.fromEntries(CORPUS.map((entry, index) => [entry, judged[index]]))).toMatchObject({
      'notes.txt': 'allowed',
      'deep/new/file.txt': 'allowed',
      '.git/hooks/pre-commit': 'protected_path',
      'src/../.git/hooks/post-checkout': 'protected_path',
      '.ssh/authorized_keys': 'protected_path',
      '.bashrc': 'protected_path',
      '../outside/x.txt': 'scope_escape',
      '/etc/passwd': 'protected_path',
      // Through a symlink: the real place the write lands is judged, as the jail's walk does.
      'alias-git/hooks/pre-push': 'protected_path',
      'alias-git/config': 'protected_path',
      'alias-hooks/pre-commit': 'protected_path',
      'alias-out/x.txt': 'symlink_refused',
      'alias-back/x.txt': 'allowed',
      'a\0b': 'invalid_path',
    });
  });

  it('judges a move by both its source and its destination', async () => {
    box = await createSandbox({}, async (paths) => {
      await workspace(paths);
      await writeFile(path.join(paths.root, 'a.txt'), 'A');
    });
    const judge = (target: { path: string; destination: string }) => () =>
      box?.host.preflight?.({ toolId: 'move_file', action: 'fs_write', target });

    expect(judge({ path: 'a.txt', destination: 'src/a.txt' })).not.toThrow();
    expect(judge({ path: 'a.txt', destination: '.git/hooks/pre-commit' })).toThrow(
      expect.objectContaining({ reason: 'protected_path' }),
    );
    expect(judge({ path: '.git/HEAD', destination: 'HEAD' })).toThrow(
      expect.objectContaining({ reason: 'protected_path' }),
    );
    expect(judge({ path: 'a.txt', destination: 'alias-out/a.txt' })).toThrow(
      expect.objectContaining({ reason: 'symlink_refused' }),
    );
  });

  it('a floor-protected write is refused before anyone is asked, in dispatch and preflight', async () => {
    box = await createSandbox({}, workspace);
    const registry = createToolRegistry({ tools: [writeFileTool, moveFileTool], host: box.host });
    const asked: ToolApprovalRequest[] = [];
    const guarded: string[] = [];
    const ctx: ToolDispatchContext = {
      nodeId: 'n',
      grantedToolIds: new Set(['write_file', 'move_file']),
      config: {},
      toolPolicy: {},
      fsScope: 'sandboxed',
      gateApproved: false,
      approval: {
        confirm: async (request) => {
          asked.push(request);
          return { outcome: 'approve' };
        },
      },
      actionGuard: {
        decide: async (request) => {
          guarded.push(request.toolId);
          return { outcome: 'allow' };
        },
      },
    };
    const call = {
      id: 'c1',
      name: 'write_file',
      args: { path: '.git/hooks/pre-commit', content: 'x' },
    };

    expect(() => registry.preflight(call, ctx)).toThrow(
      expect.objectContaining({ reason: 'protected_path' }),
    );
    await expect(registry.dispatch(call, ctx)).rejects.toMatchObject({
      name: 'ToolPolicyError',
      reason: 'protected_path',
    });
    await expect(
      registry.dispatch(
        { id: 'c2', name: 'write_file', args: { path: 'alias-git/hooks/pre-push', content: 'x' } },
        ctx,
      ),
    ).rejects.toMatchObject({ reason: 'protected_path' });
    expect(asked).toEqual([]);
    expect(guarded).toEqual([]);

    // An ordinary write still asks, once, and lands.
    await registry.dispatch(
      { id: 'c3', name: 'write_file', args: { path: 'ok.txt', content: 'x' } },
      ctx,
    );
    expect(asked.map((request) => request.preview.path)).toEqual(['ok.txt']);
    expect(guarded).toEqual(['write_file']);
  });

  it('refuses an HTTP request the SSRF floor refuses before anyone is asked, without a lookup', async () => {
    box = await createSandbox({ egress: {} });
    const registry = createToolRegistry({ tools: [httpRequestTool], host: box.host });
    const asked: string[] = [];
    const ctx: ToolDispatchContext = {
      nodeId: 'n',
      grantedToolIds: new Set(['http_request']),
      config: {},
      // The operator allowed these hosts; the host's floor refuses them all the same.
      toolPolicy: {
        allowedDomains: ['169.254.169.254', 'localhost', '127.0.0.1', '[::1]', 'example.com'],
      },
      fsScope: 'sandboxed',
      gateApproved: false,
      approval: {
        confirm: async (request) => {
          asked.push(request.preview.host ?? '');
          return { outcome: 'reject' };
        },
      },
    };
    const get = (url: string) =>
      registry.dispatch({ id: url, name: 'http_request', args: { url, method: 'GET' } }, ctx);

    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://localhost/',
      'https://127.0.0.1:8443/',
      'https://[::1]/',
    ]) {
      await expect(get(url)).rejects.toMatchObject({
        name: 'ToolPolicyError',
        reason: 'ssrf_blocked',
      });
    }
    expect(asked).toEqual([]);
    // A public name is judged by its lookup, later: it is put to the person as before.
    await expect(get('https://example.com/')).rejects.toMatchObject({ reason: 'user_rejected' });
    expect(asked).toEqual(['example.com']);
  });
});
