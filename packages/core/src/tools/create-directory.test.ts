import { describe, expect, it } from 'vitest';
import type { ToolApprovalRequest } from '../dispatch-context.js';
import { ToolUnavailableError } from '../errors.js';
import { createMemoryEffectJournal } from '../journal/memory-effect-journal.js';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { toProviderTools } from '../lowering/to-provider-tools.js';
import { createToolRegistry } from '../registry.js';
import type {
  DirectoryMake,
  FsCapability,
  FsMakeDirectoryRequest,
  ToolHost,
} from '../tool-host.js';
import { createDirectoryTool } from './create-directory.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, testContext } from './test-support/stub-host.js';

const MADE: DirectoryMake = { path: 'a/b', created: true };

function makeHost(answer: () => DirectoryMake = () => MADE): {
  host: ToolHost;
  requests: FsMakeDirectoryRequest[];
} {
  const requests: FsMakeDirectoryRequest[] = [];
  const fs: FsCapability = {
    readFile: async () => {
      throw new Error('create_directory must not read');
    },
    listDirectory: async () => ({ entries: [] }),
    makeDirectory: async (request) => {
      requests.push(request);
      return answer();
    },
  };
  return { host: { fs }, requests };
}

const CALL = { id: 'call-1', name: 'create_directory', args: { path: 'a/b' } };
const GRANTED = new Set(['create_directory']);

describe('create_directory', () => {
  it.each([
    ['a missing path', {}, 'path'],
    ['an empty path', { path: '' }, 'path'],
    ['an unknown key', { path: 'a', recursive: CANARY }, 'recursive'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(createDirectoryTool, raw, field);
  });

  it('calls fs.makeDirectory with the path and the signal, returning path and created', async () => {
    const { host, requests } = makeHost(() => ({ path: 'a/b', created: false }));

    const result = await createDirectoryTool.dispatch({ path: 'a/b' }, host, testContext());

    expect(requests).toEqual([{ path: 'a/b' }]);
    expect(result).toEqual({ path: 'a/b', created: false });
  });

  it('is an fs write targeting the path, governed as fs_write and lowered strict', () => {
    const [lowered] = toProviderTools([createDirectoryTool], 'openai-chat');

    expect(createDirectoryTool.policy).toMatchObject({ fsScoped: true, fsWrite: true });
    expect(createDirectoryTool.policyTarget?.({ path: 'p' })).toEqual({ path: 'p' });
    expect(approvalActionClass(createDirectoryTool)).toBe('fs_write');
    expect(lowered?.function.strict).toBe(true);
  });

  it('asks the approver with the path before the host creates anything', async () => {
    const { host, requests } = makeHost();
    const registry = createToolRegistry({ tools: [createDirectoryTool], host });
    const approvals: ToolApprovalRequest[] = [];
    const madeAtConfirm: number[] = [];

    await registry.dispatch(
      CALL,
      testContext({
        grantedToolIds: GRANTED,
        approval: {
          confirm: async (request) => {
            approvals.push(request);
            madeAtConfirm.push(requests.length);
            return { outcome: 'approve' };
          },
        },
      }),
    );

    expect(approvals.map((request) => [request.action, request.preview])).toEqual([
      ['fs_write', { path: 'a/b' }],
    ]);
    expect(madeAtConfirm).toEqual([0]);
  });

  it('journals a creation and replays it', async () => {
    const { host, requests } = makeHost();
    const registry = createToolRegistry({ tools: [createDirectoryTool], host });
    const ctx = testContext({
      grantedToolIds: GRANTED,
      journal: { store: createMemoryEffectJournal(), runId: 'run-1' },
    });

    const first = await registry.dispatch(CALL, ctx);
    const replayed = await registry.dispatch(CALL, ctx);

    expect(replayed.journal?.status).toBe('replayed');
    expect(replayed.output).toEqual(first.output);
    expect(requests).toHaveLength(1);
  });

  it('fails with ToolUnavailableError naming fs.makeDirectory on a host without it', async () => {
    const host: ToolHost = {
      fs: { readFile: async () => ({}) as never, listDirectory: async () => ({ entries: [] }) },
    };

    const attempt = createDirectoryTool.dispatch({ path: 'a' }, host, testContext());

    await expect(attempt).rejects.toBeInstanceOf(ToolUnavailableError);
    await expect(attempt).rejects.toMatchObject({ capability: 'fs.makeDirectory' });
  });

  it('fails with ToolUnavailableError naming fs when the host has no fs arm', async () => {
    const attempt = createDirectoryTool.dispatch({ path: 'a' }, EMPTY_HOST, testContext());

    await expect(attempt).rejects.toMatchObject({ code: 'tool_unavailable', capability: 'fs' });
  });
});
