import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { ToolUnavailableError } from '../errors.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';
import { writeFileTool } from './write-file.js';

describe('write_file', () => {
  it('accepts empty content and the append and createDirs flags', () => {
    const args = writeFileTool.parseArgs({
      path: 'a',
      content: '',
      append: true,
      createDirs: true,
    });

    expect(args).toEqual({ path: 'a', content: '', append: true, createDirs: true });
  });

  it.each([
    ['a missing path', { content: 'x' }, 'path'],
    ['missing content', { path: 'a' }, 'content'],
    ['non-string content', { path: 'a', content: 5 }, 'content'],
    ['content over 8 MiB', { path: 'a', content: CANARY.repeat(400_000) }, 'content'],
    ['a non-boolean append', { path: 'a', content: '', append: 'yes' }, 'append'],
    ['an unknown key', { path: 'a', content: '', mode: CANARY }, 'mode'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(writeFileTool, raw, field);
  });

  it('calls fs.writeFile with exactly the args and the signal', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;

    await writeFileTool.dispatch(
      { path: 'a.txt', content: 'hi', append: true },
      host,
      testContext({ signal }),
    );

    expect(onlyCall(calls, 'fs.writeFile')).toEqual([
      { path: 'a.txt', content: 'hi', append: true },
      signal,
    ]);
  });

  it('returns the host-relative path and the bytes written', async () => {
    const { host } = stubHost({ writeFile: () => ({ path: 'dir/a.txt', bytesWritten: 7 }) });

    const result = await writeFileTool.dispatch(
      { path: 'dir/a.txt', content: 'x' },
      host,
      testContext(),
    );

    expect(result).toEqual({ path: 'dir/a.txt', bytesWritten: 7 });
  });

  it('is an fs write targeting the path (with its text and mode) and governed as fs_write', () => {
    expect(writeFileTool.policy).toMatchObject({
      fsScoped: true,
      fsWrite: true,
      spawnsProcess: false,
    });
    expect(writeFileTool.policyTarget?.({ path: 'p', content: 'c' })).toEqual({
      path: 'p',
      content: 'c',
      writeMode: 'replace',
    });
    expect(writeFileTool.policyTarget?.({ path: 'p', content: '', append: true })).toEqual({
      path: 'p',
      content: '',
      writeMode: 'append',
    });
    expect(approvalActionClass(writeFileTool)).toBe('fs_write');
  });

  it('fails with ToolUnavailableError naming fs.writeFile on a read-only host', async () => {
    const { host, calls } = stubHost({ writeFile: null });

    const attempt = writeFileTool.dispatch({ path: 'a', content: '' }, host, testContext());

    await expect(attempt).rejects.toBeInstanceOf(ToolUnavailableError);
    await expect(attempt).rejects.toMatchObject({ capability: 'fs.writeFile' });
    expect(calls).toEqual([]);
  });

  it('fails with ToolUnavailableError naming fs when the host has no fs arm', async () => {
    const attempt = writeFileTool.dispatch({ path: 'a', content: '' }, EMPTY_HOST, testContext());

    await expect(attempt).rejects.toMatchObject({ code: 'tool_unavailable', capability: 'fs' });
  });

  it('lets a host failure through unchanged for the registry to classify', async () => {
    const failure = new Error('EROFS');
    const { host } = stubHost({
      writeFile: () => {
        throw failure;
      },
    });

    await expect(
      writeFileTool.dispatch({ path: 'a', content: '' }, host, testContext()),
    ).rejects.toBe(failure);
  });
});
