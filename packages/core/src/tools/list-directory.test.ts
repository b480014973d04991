import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { createToolRegistry } from '../registry.js';
import { unwrapUntrusted } from '../untrusted.js';
import { splitModelView } from '../with-model-view.js';
import { listDirectoryTool, MAX_CURSOR_LENGTH } from './list-directory.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

const entry = { name: 'a.txt', type: 'file' as const, sizeBytes: 1, lastModified: 'x' };

describe('list_directory', () => {
  it('accepts a path with recursive, glob, includeIgnored and cursor', () => {
    const raw = {
      path: '.',
      recursive: true,
      glob: '*.ts',
      includeIgnored: true,
      cursor: 'l1.x.y',
    };

    expect(listDirectoryTool.parseArgs(raw)).toEqual(raw);
  });

  it.each([
    ['a missing path', {}, 'path'],
    ['an empty glob', { path: '.', glob: '' }, 'glob'],
    ['a non-boolean recursive', { path: '.', recursive: CANARY }, 'recursive'],
    ['a non-boolean includeIgnored', { path: '.', includeIgnored: CANARY }, 'includeIgnored'],
    ['an empty cursor', { path: '.', cursor: '' }, 'cursor'],
    ['an over-long cursor', { path: '.', cursor: 'c'.repeat(MAX_CURSOR_LENGTH + 1) }, 'cursor'],
    ['an unknown key', { path: '.', depth: 3 }, 'depth'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(listDirectoryTool, raw, field);
  });

  it('passes includeIgnored and cursor to the host', async () => {
    const { host, calls } = stubHost();

    await listDirectoryTool.dispatch(
      { path: '.', includeIgnored: true, cursor: 'l1.x.y' },
      host,
      testContext(),
    );

    expect(onlyCall(calls, 'fs.listDirectory')[0]).toEqual({
      path: '.',
      includeIgnored: true,
      cursor: 'l1.x.y',
    });
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

  it('keeps the entries, total and cursor whole for state, and shows the model a compact text', async () => {
    const listing = {
      entries: [entry],
      truncated: true,
      total: 7,
      totalExact: true,
      cursor: 'l1.a.b',
    };
    const { host } = stubHost({ listDirectory: () => listing });

    const split = splitModelView(
      await listDirectoryTool.dispatch({ path: '.' }, host, testContext()),
    );

    expect(split.result).toEqual(listing);
    expect(split.modelView).toBe(
      [
        '1 of 7 entries; cut: more remain, pass the cursor below for the next page.',
        './',
        '  a.txt (1 B)',
        'next page: list_directory with the same arguments and cursor "l1.a.b"',
      ].join('\n'),
    );
  });

  it('omits what the host did not report', async () => {
    const { host } = stubHost({ listDirectory: () => ({ entries: [entry] }) });

    const split = splitModelView(
      await listDirectoryTool.dispatch({ path: '.' }, host, testContext()),
    );

    expect(split.result).toEqual({ entries: [entry] });
  });

  it('dispatches to the full listing as output and the compact text as the tool result', async () => {
    const { host } = stubHost({ listDirectory: () => ({ entries: [entry], total: 1 }) });
    const registry = createToolRegistry({ tools: [listDirectoryTool], host });

    const outcome = await registry.dispatch(
      { id: 'c1', name: 'list_directory', args: { path: '.' } },
      testContext({ grantedToolIds: new Set(['list_directory']) }),
    );

    expect(outcome.output).toEqual({ entries: [entry], total: 1 });
    expect(unwrapUntrusted(outcome.toolResult).result).toBe(
      '1 entry; complete.\n./\n  a.txt (1 B)',
    );
  });

  it('is an fs-scoped read targeting the path and never governed by approval', () => {
    expect(listDirectoryTool.policy).toEqual({
      fsScoped: true,
      spawnsProcess: false,
      requiresGateApproval: false,
      effect: { readOnly: true, destructive: false, idempotent: true },
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
