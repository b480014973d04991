import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { listDirectoryTool } from './list-directory.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

const entry = { name: 'a.txt', type: 'file' as const, sizeBytes: 1, lastModified: 'x' };

describe('list_directory', () => {
  it('accepts a path with recursive and glob', () => {
    const args = listDirectoryTool.parseArgs({ path: '.', recursive: true, glob: '*.ts' });

    expect(args).toEqual({ path: '.', recursive: true, glob: '*.ts' });
  });

  it.each([
    ['a missing path', {}, 'path'],
    ['an empty glob', { path: '.', glob: '' }, 'glob'],
    ['a non-boolean recursive', { path: '.', recursive: CANARY }, 'recursive'],
    ['an unknown key', { path: '.', depth: 3 }, 'depth'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(listDirectoryTool, raw, field);
  });

  it('calls fs.listDirectory with exactly the args and the signal', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;

    await listDirectoryTool.dispatch(
      { path: 'src', recursive: true },
      host,
      testContext({ signal }),
    );

    expect(onlyCall(calls, 'fs.listDirectory')).toEqual([{ path: 'src', recursive: true }, signal]);
  });

  it('returns the entries, and says when the entry cap cut them', async () => {
    const { host } = stubHost({ listDirectory: () => ({ entries: [entry], truncated: true }) });

    const result = await listDirectoryTool.dispatch({ path: '.' }, host, testContext());

    expect(result).toEqual({ entries: [entry], truncated: true });
  });

  it('omits truncated when the host did not cut the listing', async () => {
    const { host } = stubHost({ listDirectory: () => ({ entries: [entry] }) });

    const result = await listDirectoryTool.dispatch({ path: '.' }, host, testContext());

    expect(result).toEqual({ entries: [entry] });
  });

  it('is an fs-scoped read targeting the path and never governed by approval', () => {
    expect(listDirectoryTool.policy).toEqual({
      fsScoped: true,
      spawnsProcess: false,
      requiresGateApproval: false,
    });
    expect(listDirectoryTool.policyTarget?.({ path: 'x' })).toEqual({ path: 'x' });
    expect(approvalActionClass(listDirectoryTool)).toBeUndefined();
  });

  it('fails with ToolUnavailableError naming fs when the host has no fs arm', async () => {
    await expect(
      listDirectoryTool.dispatch({ path: '.' }, EMPTY_HOST, testContext()),
    ).rejects.toMatchObject({
      code: 'tool_unavailable',
      capability: 'fs',
    });
  });
});
