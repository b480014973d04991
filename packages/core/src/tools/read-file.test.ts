import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { ToolUnavailableError } from '../errors.js';
import { splitMedia } from '../with-media.js';
import { readFileTool } from './read-file.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

const handle = `media://sha256-${'a'.repeat(64)}`;

describe('read_file', () => {
  it('accepts a path with paging and glob options', () => {
    const args = readFileTool.parseArgs({ path: 'src/a.ts', glob: false, offset: 0, limit: 10 });

    expect(args).toEqual({ path: 'src/a.ts', glob: false, offset: 0, limit: 10 });
  });

  it.each([
    ['a missing path', {}, 'path'],
    ['an empty path', { path: '' }, 'path'],
    ['an over-long path', { path: `${CANARY}${'x'.repeat(4096)}` }, 'path'],
    ['a negative offset', { path: 'a', offset: -1 }, 'offset'],
    ['a fractional offset', { path: 'a', offset: 1.5 }, 'offset'],
    ['a zero limit', { path: 'a', limit: 0 }, 'limit'],
    ['a non-boolean glob', { path: 'a', glob: CANARY }, 'glob'],
    ['an unknown key', { path: 'a', mode: CANARY }, 'mode'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(readFileTool, raw, field);
  });

  it('calls fs.readFile with the args, the media scope and the signal', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;
    const ctx = testContext({ mediaScope: 'run-1', signal });

    await readFileTool.dispatch({ path: 'a.txt', offset: 2, limit: 3 }, host, ctx);

    expect(onlyCall(calls, 'fs.readFile')).toEqual([
      { path: 'a.txt', offset: 2, limit: 3, mediaScope: 'run-1' },
      signal,
    ]);
  });

  it('never passes an undefined key to the host', async () => {
    const { host, calls } = stubHost();

    await readFileTool.dispatch({ path: 'a.txt' }, host, testContext());

    expect(Object.keys(onlyCall(calls, 'fs.readFile')[0] as object)).toEqual(['path']);
  });

  it('returns content, mimeType, sizeBytes and lastModified for a text file', async () => {
    const { host } = stubHost();

    const result = await readFileTool.dispatch({ path: 'a.txt' }, host, testContext());

    expect(result).toEqual({
      content: 'hello',
      mimeType: 'text/plain',
      sizeBytes: 5,
      lastModified: '2026-01-01T00:00:00.000Z',
    });
  });

  it('returns a binary file as a media attachment with its handle, never inline bytes', async () => {
    const media = { type: 'media' as const, handle, mimeType: 'image/png', sizeBytes: 9 };
    const { host } = stubHost({
      readFile: () => ({
        content: '',
        mimeType: 'image/png',
        sizeBytes: 9,
        lastModified: 'x',
        media,
      }),
    });

    const split = splitMedia(await readFileTool.dispatch({ path: 'a.png' }, host, testContext()));

    expect(split.result).toEqual({
      content: '',
      mimeType: 'image/png',
      sizeBytes: 9,
      lastModified: 'x',
      handle,
    });
    expect(split.parts).toEqual([media]);
  });

  it('keeps the glob match count so the model knows when the cap cut the list', async () => {
    const matches = { count: 200, truncated: true };
    const { host } = stubHost({
      readFile: () => ({
        content: 's',
        mimeType: 'text/plain',
        sizeBytes: 1,
        lastModified: 'x',
        matches,
      }),
    });

    const result = await readFileTool.dispatch(
      { path: '**/*.ts', glob: true },
      host,
      testContext(),
    );

    expect(result).toMatchObject({ matches });
  });

  it("keeps a window's total line count and whether more lines follow", async () => {
    const window = { totalLines: 40, more: true };
    const { host } = stubHost({
      readFile: () => ({
        content: 'b\n',
        mimeType: 'text/plain',
        sizeBytes: 80,
        lastModified: 'x',
        ...window,
      }),
    });

    const result = await readFileTool.dispatch(
      { path: 'a.txt', offset: 1, limit: 1 },
      host,
      testContext(),
    );

    expect(result).toEqual({
      content: 'b\n',
      mimeType: 'text/plain',
      sizeBytes: 80,
      lastModified: 'x',
      ...window,
    });
  });

  it('is an fs-scoped read targeting the path and never governed by approval', () => {
    expect(readFileTool.policy).toEqual({
      fsScoped: true,
      spawnsProcess: false,
      requiresGateApproval: false,
      effect: { readOnly: true, destructive: false, idempotent: true },
    });
    expect(readFileTool.policyTarget?.({ path: 'a/b' })).toEqual({ path: 'a/b' });
    expect(approvalActionClass(readFileTool)).toBeUndefined();
  });

  it('fails with ToolUnavailableError naming fs when the host has no fs arm', async () => {
    const attempt = readFileTool.dispatch({ path: 'a' }, EMPTY_HOST, testContext());

    await expect(attempt).rejects.toBeInstanceOf(ToolUnavailableError);
    await expect(attempt).rejects.toMatchObject({ capability: 'fs', recoverable: false });
  });

  it('lets a host failure through unchanged for the registry to classify', async () => {
    const failure = new Error('disk gone');
    const { host } = stubHost({
      readFile: () => {
        throw failure;
      },
    });

    await expect(readFileTool.dispatch({ path: 'a' }, host, testContext())).rejects.toBe(failure);
  });
});
