import { describe, expect, it } from 'vitest';
import type { ActionGuardRequest, ToolApprovalRequest } from '../dispatch-context.js';
import { ToolArgsInvalidError, ToolUnavailableError } from '../errors.js';
import { createMemoryEffectJournal } from '../journal/memory-effect-journal.js';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { fromOpenAiStrictArgs } from '../lowering/from-openai-strict-args.js';
import { toOpenAiStrictSchema } from '../lowering/to-openai-strict-schema.js';
import { createToolRegistry } from '../registry.js';
import { unwrapUntrusted } from '../untrusted.js';
import type { FileEdit, FsCapability, FsEditRequest, ToolHost } from '../tool-host.js';
import { editFileTool, MAX_EDITS } from './edit-file.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, testContext } from './test-support/stub-host.js';

const EDITED: FileEdit = { path: 'a.txt', replacements: 1, diff: '--- a/a.txt\n+++ b/a.txt\n' };

// A host whose fs arm records what it is asked, in order, and answers with `answer`.
function editHost(answer: (request: FsEditRequest) => FileEdit = () => EDITED): {
  host: ToolHost;
  calls: string[];
  requests: FsEditRequest[];
} {
  const calls: string[] = [];
  const requests: FsEditRequest[] = [];
  const fs: FsCapability = {
    readFile: async () => {
      calls.push('fs.readFile');
      throw new Error('edit_file must not read through readFile');
    },
    listDirectory: async () => ({ entries: [] }),
    editFile: async (request) => {
      calls.push('fs.editFile');
      requests.push(request);
      return answer(request);
    },
  };
  return { host: { fs }, calls, requests };
}

const CALL = {
  id: 'call-1',
  name: 'edit_file',
  args: { path: 'a.txt', edits: [{ oldText: 'old line', newText: 'new line' }] },
};

describe('edit_file', () => {
  it('accepts edits with replaceAll and an empty newText, and dryRun', () => {
    const raw = {
      path: 'a',
      edits: [{ oldText: 'x', newText: '', replaceAll: true }],
      dryRun: true,
    };

    expect(editFileTool.parseArgs(raw)).toEqual(raw);
  });

  it.each([
    ['a missing path', { edits: [{ oldText: 'a', newText: 'b' }] }, 'path'],
    ['no edits', { path: 'a', edits: [] }, 'edits'],
    [
      'an empty oldText',
      { path: 'a', edits: [{ oldText: '', newText: CANARY }] },
      'edits.0.oldText',
    ],
    ['a missing newText', { path: 'a', edits: [{ oldText: CANARY }] }, 'edits.0.newText'],
    [
      'an unknown key in an edit',
      { path: 'a', edits: [{ oldText: 'a', newText: 'b', regex: CANARY }] },
      'edits.0.regex',
    ],
    [
      'too many edits',
      {
        path: 'a',
        edits: Array.from({ length: MAX_EDITS + 1 }, () => ({ oldText: 'a', newText: 'b' })),
      },
      'edits',
    ],
    [
      'more text than two whole files',
      {
        path: 'a',
        edits: Array.from({ length: 3 }, () => ({ oldText: 'x'.repeat(6_000_000), newText: '' })),
      },
      'edits',
    ],
    [
      'a non-boolean dryRun',
      { path: 'a', edits: [{ oldText: 'a', newText: 'b' }], dryRun: 'yes' },
      'dryRun',
    ],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(editFileTool, raw, field);
  });

  it('calls fs.editFile once with exactly the args and the signal', async () => {
    const { host, calls, requests } = editHost();
    const signal = new AbortController().signal;
    const args = editFileTool.parseArgs({
      path: 'a.txt',
      edits: [{ oldText: 'a', newText: 'b', replaceAll: true }],
      dryRun: true,
    });

    await editFileTool.dispatch(args, host, testContext({ signal }));

    expect(calls).toEqual(['fs.editFile']);
    expect(requests).toEqual([
      { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b', replaceAll: true }], dryRun: true },
    ]);
  });

  it('keeps the full result as state and shows the model the diff as text', async () => {
    const registry = createToolRegistry({ tools: [editFileTool], host: editHost().host });

    const outcome = await registry.dispatch(
      CALL,
      testContext({ grantedToolIds: new Set(['edit_file']) }),
    );

    expect(outcome.output).toEqual(EDITED);
    expect(unwrapUntrusted(outcome.toolResult).result).toBe(
      `a.txt: replaced 1 occurrence(s)\n${EDITED.diff}`,
    );
  });

  it('is an fs write targeting the path and its edits, governed as fs_write unless a dry run', () => {
    const args = editFileTool.parseArgs(CALL.args);

    expect(editFileTool.policy).toMatchObject({
      fsScoped: true,
      fsWrite: true,
      readOnlyWhen: 'dryRun',
    });
    expect(editFileTool.policyTarget?.(args)).toEqual({
      path: 'a.txt',
      edits: [{ oldText: 'old line', newText: 'new line' }],
    });
    expect(approvalActionClass(editFileTool)).toBe('fs_write');
  });

  it('lowers to an OpenAI strict schema whose nulls map back to valid args', () => {
    const strict = toOpenAiStrictSchema(editFileTool.llmVisibleParams);
    const fromModel = {
      path: 'a.txt',
      edits: [{ oldText: 'a', newText: 'b', replaceAll: null }],
      dryRun: null,
    };

    const args = editFileTool.parseArgs(fromOpenAiStrictArgs(editFileTool, fromModel));

    expect(strict).toMatchObject({
      additionalProperties: false,
      required: ['path', 'edits', 'dryRun'],
    });
    expect(args).toEqual({ path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }] });
  });

  it('fails with ToolUnavailableError naming fs.editFile on a host without it', async () => {
    const host: ToolHost = {
      fs: { readFile: async () => ({}) as never, listDirectory: async () => ({ entries: [] }) },
    };

    const attempt = editFileTool.dispatch(editFileTool.parseArgs(CALL.args), host, testContext());

    await expect(attempt).rejects.toBeInstanceOf(ToolUnavailableError);
    await expect(attempt).rejects.toMatchObject({ capability: 'fs.editFile' });
  });

  it('fails with ToolUnavailableError naming fs when the host has no fs arm', async () => {
    const attempt = editFileTool.dispatch(
      editFileTool.parseArgs(CALL.args),
      EMPTY_HOST,
      testContext(),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_unavailable', capability: 'fs' });
  });
});

describe('edit_file governance', () => {
  const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
  const secretCall = {
    ...CALL,
    args: {
      path: 'config.ts',
      edits: [
        { oldText: 'const port = 80;', newText: `const port = 8080;\nconst token = "${secret}";` },
      ],
    },
  };

  function governedContext(
    seen: {
      approvals: ToolApprovalRequest[];
      guards: ActionGuardRequest[];
      hostCallsAtConfirm: number[];
    },
    calls: string[],
  ) {
    return testContext({
      grantedToolIds: new Set(['edit_file']),
      actionGuard: {
        decide: async (request) => {
          seen.guards.push(request);
          return { outcome: 'allow' };
        },
      },
      approval: {
        confirm: async (request) => {
          seen.approvals.push(request);
          seen.hostCallsAtConfirm.push(calls.length);
          return { outcome: 'approve' };
        },
      },
    });
  }

  it('asks the approver with the edit as before/after from the args, scrubbed, before touching the host', async () => {
    const { host, calls } = editHost();
    const registry = createToolRegistry({ tools: [editFileTool], host });
    const seen = { approvals: [], guards: [], hostCallsAtConfirm: [] };

    await registry.dispatch(secretCall, governedContext(seen, calls));

    const [request] = seen.approvals as ToolApprovalRequest[];
    expect(request?.action).toBe('fs_write');
    expect(request?.preview.path).toBe('config.ts');
    expect(request?.preview.change).toContain('- const port = 80;');
    expect(request?.preview.change).toContain('+ const port = 8080;');
    expect(request?.preview.change).toContain('[redacted]');
    expect(JSON.stringify(request?.preview)).not.toContain(secret);
    expect((seen.guards as ActionGuardRequest[])[0]?.preview).toEqual(request?.preview);
    expect(seen.hostCallsAtConfirm).toEqual([0]);
    expect(calls).toEqual(['fs.editFile']);
  });

  it('gives preflight the same scrubbed preview the approver gets', () => {
    const registry = createToolRegistry({ tools: [editFileTool], host: editHost().host });

    const screened = registry.preflight(
      secretCall,
      testContext({ grantedToolIds: new Set(['edit_file']) }),
    );

    expect(screened.action).toBe('fs_write');
    expect(screened.preview?.change).toContain('+ const port = 8080;');
    expect(JSON.stringify(screened)).not.toContain(secret);
  });

  it('runs a dry run ungoverned: no guard, no approval, nothing for preflight to gate', async () => {
    const { host, calls } = editHost();
    const registry = createToolRegistry({ tools: [editFileTool], host });
    const seen = { approvals: [], guards: [], hostCallsAtConfirm: [] };
    const dryCall = { ...secretCall, args: { ...secretCall.args, dryRun: true } };
    const ctx = governedContext(seen, calls);

    const screened = registry.preflight(dryCall, ctx);
    await registry.dispatch(dryCall, ctx);

    expect(screened).toEqual({});
    expect(seen.approvals).toEqual([]);
    expect(seen.guards).toEqual([]);
    expect(calls).toEqual(['fs.editFile']);
  });

  it('governs dryRun: false like any edit', async () => {
    const { host, calls } = editHost();
    const registry = createToolRegistry({ tools: [editFileTool], host });
    const seen = { approvals: [], guards: [], hostCallsAtConfirm: [] };
    const call = { ...secretCall, args: { ...secretCall.args, dryRun: false } };

    await registry.dispatch(call, governedContext(seen, calls));

    expect(seen.approvals).toHaveLength(1);
    expect(seen.guards).toHaveLength(1);
  });

  it('journals an edit and replays it, but never journals a dry run', async () => {
    const store = createMemoryEffectJournal();
    const { host, calls } = editHost();
    const registry = createToolRegistry({ tools: [editFileTool], host });
    const ctx = testContext({
      grantedToolIds: new Set(['edit_file']),
      journal: { store, runId: 'run-1' },
    });
    const dryCall = { ...CALL, id: 'call-dry', args: { ...CALL.args, dryRun: true } };

    const first = await registry.dispatch(CALL, ctx);
    const replayed = await registry.dispatch(CALL, ctx);
    const dry = await registry.dispatch(dryCall, ctx);
    const dryAgain = await registry.dispatch(dryCall, ctx);

    expect(first.journal?.status).toBe('settled');
    expect(replayed.journal?.status).toBe('replayed');
    expect(replayed.output).toEqual(first.output);
    expect(dry.journal).toBeUndefined();
    expect(dryAgain.journal).toBeUndefined();
    expect(calls).toEqual(['fs.editFile', 'fs.editFile', 'fs.editFile']);
  });

  it('feeds back a dry run that failed in the host as a read, and a real edit as a side effect', async () => {
    const { host } = editHost(() => {
      throw new Error('EIO');
    });
    const registry = createToolRegistry({ tools: [editFileTool], host });
    const ctx = testContext({ grantedToolIds: new Set(['edit_file']) });

    const dry = registry.dispatch({ ...CALL, args: { ...CALL.args, dryRun: true } }, ctx);
    const real = registry.dispatch(CALL, ctx);

    await expect(dry).rejects.toMatchObject({ reason: 'host_error', recoverable: true });
    await expect(real).rejects.toMatchObject({ reason: 'host_error', recoverable: false });
  });

  it('lets the host refuse an edit that does not match as a correctable args error', async () => {
    const { host } = editHost(() => {
      throw new ToolArgsInvalidError('edit_file', [
        { field: 'edits.0.oldText', problem: 'not found' },
      ]);
    });
    const registry = createToolRegistry({ tools: [editFileTool], host });

    const attempt = registry.dispatch(
      CALL,
      testContext({ grantedToolIds: new Set(['edit_file']) }),
    );

    await expect(attempt).rejects.toThrow(
      'tool edit_file args invalid: edits.0.oldText (not found)',
    );
  });
});
