import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { classifyToolError, ToolArgsInvalidError, ToolPolicyError } from '../errors.js';
import type { MediaInfo } from '../tool-host.js';
import { splitMedia } from '../with-media.js';
import { MAX_MEDIA_READ_BYTES, readMediaTool } from './read-media.js';
import { expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

const handle = `media://sha256-${'c'.repeat(64)}`;
const info: MediaInfo = { handle, mimeType: 'image/png', sizeBytes: 10, allowedScopes: ['run-1'] };
const inScope = testContext({ mediaScope: 'run-1' });

describe('read_media', () => {
  it('accepts a handle with an optional inclusive range', () => {
    expect(readMediaTool.parseArgs({ handle, start: 0, end: 3 })).toEqual({
      handle,
      start: 0,
      end: 3,
    });
  });

  it.each([
    ['a missing handle', {}, 'handle'],
    ['a path as handle', { handle: '/etc/passwd' }, 'handle'],
    ['an upper-case hash', { handle: `media://sha256-${'C'.repeat(64)}` }, 'handle'],
    ['a short hash', { handle: `media://sha256-${'c'.repeat(63)}` }, 'handle'],
    ['a trailing newline', { handle: `${handle}\n` }, 'handle'],
    ['a negative start', { handle, start: -1 }, 'start'],
    ['a negative end', { handle, end: -1 }, 'end'],
    ['a fractional end', { handle, end: 1.5 }, 'end'],
    ['an unknown key', { handle, scope: 'run-2' }, 'scope'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(readMediaTool, raw, field);
  });

  it('stats first and returns the whole object as a media part when no range is given', async () => {
    const { host, calls } = stubHost({ mediaStat: () => info });

    const split = splitMedia(await readMediaTool.dispatch({ handle }, host, inScope));

    expect(calls.map((call) => call.method)).toEqual(['media.stat', 'media.read']);
    expect(onlyCall(calls, 'media.read').slice(0, 2)).toEqual([handle, { start: 0, end: 9 }]);
    expect(split.result).toEqual({
      handle,
      mimeType: 'image/png',
      sizeBytes: 10,
      range: { start: 0, end: 9 },
    });
    expect(split.parts).toEqual([
      {
        type: 'media',
        handle,
        mimeType: 'image/png',
        sizeBytes: 10,
        range: { start: 0, end: 9 },
        data: new Uint8Array(10),
      },
    ]);
  });

  it('reads exactly the inclusive range asked for, with the signal', async () => {
    const { host, calls } = stubHost({ mediaStat: () => info });
    const signal = new AbortController().signal;

    await readMediaTool.dispatch(
      { handle, start: 2, end: 2 },
      host,
      testContext({ mediaScope: 'run-1', signal }),
    );

    expect(onlyCall(calls, 'media.stat')).toEqual([handle, signal]);
    expect(onlyCall(calls, 'media.read')).toEqual([handle, { start: 2, end: 2 }, signal]);
  });

  it.each([
    ['a scope the handle does not allow', testContext({ mediaScope: 'run-2' }), ['media.stat']],
    ['no media scope (the store is not even asked)', testContext(), []],
  ])('denies media_scope_denied with %s, before any byte is read', async (_case, ctx, methods) => {
    const { host, calls } = stubHost({ mediaStat: () => info });

    const attempt = readMediaTool.dispatch({ handle }, host, ctx);

    await expect(attempt).rejects.toBeInstanceOf(ToolPolicyError);
    await expect(attempt).rejects.toMatchObject({
      reason: 'media_scope_denied',
      recoverable: true,
    });
    expect(classifyToolError(await attempt.catch((error: unknown) => error))).toBe('recoverable');
    expect(calls.map((call) => call.method)).toEqual(methods);
  });

  it("answers an unknown handle exactly as another scope's handle, so existence never leaks", async () => {
    const denial = async (mediaStat: () => MediaInfo | undefined) => {
      const { host, calls } = stubHost({ mediaStat });
      const error = await readMediaTool
        .dispatch({ handle }, host, testContext({ mediaScope: 'run-2' }))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolPolicyError);
      const { name, message, code, reason, recoverable, retryable } = error as ToolPolicyError;
      const methods = calls.map((call) => call.method);
      return { name, message, code, reason, recoverable, retryable, methods };
    };

    const unknown = await denial(() => undefined);
    const otherScope = await denial(() => info);

    expect(unknown).toEqual(otherScope);
    expect(unknown).toMatchObject({ reason: 'media_scope_denied', recoverable: true });
  });

  it('denies an unknown handle in scope the same way (no not_found oracle)', async () => {
    const { host, calls } = stubHost({ mediaStat: () => undefined });

    const attempt = readMediaTool.dispatch({ handle }, host, inScope);

    await expect(attempt).rejects.toBeInstanceOf(ToolPolicyError);
    await expect(attempt).rejects.toMatchObject({ reason: 'media_scope_denied' });
    expect(calls.map((call) => call.method)).toEqual(['media.stat']);
  });

  it.each([
    ['end at the size', { end: 10 }, 'end'],
    ['end before start', { start: 5, end: 4 }, 'end'],
    ['start past the end', { start: 10 }, 'start'],
  ])(
    'fails closed on %s with an args error naming the field, before reading',
    async (_case, range, field) => {
      const { host, calls } = stubHost({ mediaStat: () => info });

      const attempt = readMediaTool.dispatch({ handle, ...range }, host, inScope);

      await expect(attempt).rejects.toBeInstanceOf(ToolArgsInvalidError);
      await expect(attempt).rejects.toMatchObject({ fields: [field] });
      expect(calls.map((call) => call.method)).toEqual(['media.stat']);
    },
  );

  it('refuses a range past the read cap so the model pages instead', async () => {
    const big = { ...info, sizeBytes: MAX_MEDIA_READ_BYTES + 1 };
    const { host, calls } = stubHost({ mediaStat: () => big });

    await expect(readMediaTool.dispatch({ handle }, host, inScope)).rejects.toMatchObject({
      fields: ['end'],
    });
    expect(calls.map((call) => call.method)).toEqual(['media.stat']);
  });

  it('returns an empty object without reading', async () => {
    const { host, calls } = stubHost({ mediaStat: () => ({ ...info, sizeBytes: 0 }) });

    const split = splitMedia(await readMediaTool.dispatch({ handle }, host, inScope));

    expect(split.parts).toEqual([
      { type: 'media', handle, mimeType: 'image/png', sizeBytes: 0, data: new Uint8Array(0) },
    ]);
    expect(calls.map((call) => call.method)).toEqual(['media.stat']);
  });

  it('fails short_read when the store returns a different number of bytes', async () => {
    const { host } = stubHost({ mediaStat: () => info, mediaRead: () => new Uint8Array(3) });

    await expect(readMediaTool.dispatch({ handle }, host, inScope)).rejects.toMatchObject({
      reason: 'short_read',
    });
  });

  it('has no policy class and is not governed', () => {
    expect(readMediaTool.policy).toEqual({
      fsScoped: false,
      spawnsProcess: false,
      requiresGateApproval: false,
      effect: { readOnly: true, destructive: false, idempotent: true },
    });
    expect(approvalActionClass(readMediaTool)).toBeUndefined();
  });

  it('fails with ToolUnavailableError naming media when the store is absent', async () => {
    await expect(readMediaTool.dispatch({ handle }, EMPTY_HOST, inScope)).rejects.toMatchObject({
      capability: 'media',
    });
  });
});
