import { describe, expect, it } from 'vitest';
import type { ToolApprovalRequest } from '../dispatch-context.js';
import { ToolUnavailableError } from '../errors.js';
import { createMemoryEffectJournal } from '../journal/memory-effect-journal.js';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { toProviderTools } from '../lowering/to-provider-tools.js';
import { createToolRegistry } from '../registry.js';
import type { FileMove, FsCapability, FsMoveRequest, ToolHost } from '../tool-host.js';
import { moveFileTool } from './move-file.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, testContext } from './test-support/stub-host.js';

const MOVED: FileMove = { source: 'a.txt', destination: 'b/a.txt', overwritten: false };

// A host whose fs arm records every move it is asked for and answers with `answer`.
function moveHost(answer: (request: FsMoveRequest) => FileMove = () => MOVED): {
  host: ToolHost;
  requests: FsMoveRequest[];
} {
  const requests: FsMoveRequest[] = [];
  const fs: FsCapability = {
    readFile: async () => {
      throw new Error('move_file must not read');
    },
    listDirectory: async () => ({ entries: [] }),
    moveFile: async (request) => {
      requests.push(request);
      return answer(request);
    },
  };
  return { host: { fs }, requests };
}

const CALL = { id: 'call-1', name: 'move_file', args: { source: 'a.txt', destination: 'b/a.txt' } };
const GRANTED = new Set(['move_file']);

describe('move_file', () => {
  it('accepts a source, a destination and overwrite', () => {
    const raw = { source: 'a', destination: 'b', overwrite: true };

    expect(moveFileTool.parseArgs(raw)).toEqual(raw);
  });

  it.each([
    ['a missing source', { destination: 'b' }, 'source'],
    ['a missing destination', { source: 'a' }, 'destination'],
    ['an empty destination', { source: 'a', destination: '' }, 'destination'],
    ['a non-boolean overwrite', { source: 'a', destination: 'b', overwrite: CANARY }, 'overwrite'],
    ['an unknown key', { source: 'a', destination: 'b', force: CANARY }, 'force'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(moveFileTool, raw, field);
  });

  it('calls fs.moveFile with exactly the args and the signal', async () => {
    const { host, requests } = moveHost();
    const signal = new AbortController().signal;

    const result = await moveFileTool.dispatch(
      { source: 'a.txt', destination: 'b/a.txt', overwrite: true },
      host,
      testContext({ signal }),
    );

    expect(requests).toEqual([{ source: 'a.txt', destination: 'b/a.txt', overwrite: true }]);
    expect(result).toEqual(MOVED);
  });

  it('is an fs write targeting both paths, governed as fs_write', () => {
    expect(moveFileTool.policy).toMatchObject({ fsScoped: true, fsWrite: true });
    expect(moveFileTool.policyTarget?.({ source: 's', destination: 'd' })).toEqual({
      path: 's',
      destination: 'd',
    });
    expect(approvalActionClass(moveFileTool)).toBe('fs_write');
  });

  it('lowers strict for OpenAI', () => {
    const [lowered] = toProviderTools([moveFileTool], 'openai-chat');

    expect(lowered?.function.strict).toBe(true);
  });

  it('fails with ToolUnavailableError naming fs.moveFile on a host without it', async () => {
    const host: ToolHost = {
      fs: { readFile: async () => ({}) as never, listDirectory: async () => ({ entries: [] }) },
    };

    const attempt = moveFileTool.dispatch({ source: 'a', destination: 'b' }, host, testContext());

    await expect(attempt).rejects.toBeInstanceOf(ToolUnavailableError);
    await expect(attempt).rejects.toMatchObject({ capability: 'fs.moveFile' });
  });

  it('fails with ToolUnavailableError naming fs when the host has no fs arm', async () => {
    const attempt = moveFileTool.dispatch(
      { source: 'a', destination: 'b' },
      EMPTY_HOST,
      testContext(),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_unavailable', capability: 'fs' });
  });
});

describe('move_file governance', () => {
  const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
  const secretCall = {
    ...CALL,
    args: { source: 'notes.txt', destination: `backup/${secret}.txt` },
  };

  it('shows the approver both paths, scrubbed, before the host moves anything', async () => {
    const { host, requests } = moveHost();
    const registry = createToolRegistry({ tools: [moveFileTool], host });
    const approvals: ToolApprovalRequest[] = [];
    const movesAtConfirm: number[] = [];

    await registry.dispatch(
      secretCall,
      testContext({
        grantedToolIds: GRANTED,
        approval: {
          confirm: async (request) => {
            approvals.push(request);
            movesAtConfirm.push(requests.length);
            return { outcome: 'approve' };
          },
        },
      }),
    );

    const [request] = approvals;
    expect(request?.action).toBe('fs_write');
    expect(request?.preview.path).toBe('notes.txt');
    expect(request?.preview.destination).toContain('backup/');
    expect(JSON.stringify(request?.preview)).not.toContain(secret);
    expect(request?.unredactedPreview?.destination).toBe(`backup/${secret}.txt`);
    expect(movesAtConfirm).toEqual([0]);
    expect(requests).toHaveLength(1);
  });

  it('gives preflight the same scrubbed preview, destination included', () => {
    const registry = createToolRegistry({ tools: [moveFileTool], host: moveHost().host });

    const screened = registry.preflight(secretCall, testContext({ grantedToolIds: GRANTED }));

    expect(screened.action).toBe('fs_write');
    expect(screened.preview?.path).toBe('notes.txt');
    expect(screened.preview?.destination).toContain('backup/');
    expect(JSON.stringify(screened)).not.toContain(secret);
  });

  it('does not move when the approver rejects', async () => {
    const { host, requests } = moveHost();
    const registry = createToolRegistry({ tools: [moveFileTool], host });

    const attempt = registry.dispatch(
      CALL,
      testContext({
        grantedToolIds: GRANTED,
        approval: { confirm: async () => ({ outcome: 'reject' }) },
      }),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_denied' });
    expect(requests).toEqual([]);
  });

  it('journals a move and replays it instead of moving again', async () => {
    const { host, requests } = moveHost();
    const registry = createToolRegistry({ tools: [moveFileTool], host });
    const ctx = testContext({
      grantedToolIds: GRANTED,
      journal: { store: createMemoryEffectJournal(), runId: 'run-1' },
    });

    const first = await registry.dispatch(CALL, ctx);
    const replayed = await registry.dispatch(CALL, ctx);

    expect(first.journal?.status).toBe('settled');
    expect(replayed.journal?.status).toBe('replayed');
    expect(replayed.output).toEqual(first.output);
    expect(requests).toHaveLength(1);
  });
});
