import { describe, expect, it } from 'vitest';
import { GIT_NO_REPO_PROGRAMS } from './git-no-repo-programs.js';
import type { ToolDispatchContext } from '../dispatch-context.js';
import { classifyToolError, ToolPolicyError } from '../errors.js';
import { createToolRegistry } from '../registry.js';
import type { MediaInfo } from '../tool-host.js';
import { BUILTIN_TOOLS } from './builtin-tools.js';
import { onlyCall, stubHost, testContext, type StubAnswers } from './test-support/stub-host.js';

const handle = `media://sha256-${'e'.repeat(64)}`;
const mediaInfo: MediaInfo = {
  handle,
  mimeType: 'image/png',
  sizeBytes: 4,
  allowedScopes: ['run-1'],
};
const endpoint = 'https://search.example/api';

// A context under which every built-in passes its guardrails, so only the host decides.
function openContext(overrides: Partial<ToolDispatchContext> = {}): ToolDispatchContext {
  return testContext({
    grantedToolIds: new Set(BUILTIN_TOOLS.map((tool) => tool.id)),
    toolPolicy: {
      allowedCommands: ['ls -l'],
      allowedDomains: ['api.example'],
      allowedMcpTools: ['s/t'],
    },
    gateApproved: true,
    mediaScope: 'run-1',
    config: { parameters: { endpoint } },
    invokeAgent: async () => {
      throw new Error('agent crashed');
    },
    ...overrides,
  });
}

const failingHost = (): StubAnswers => {
  const fail = () => {
    throw new Error('host broke');
  };
  return {
    readFile: fail,
    writeFile: fail,
    listDirectory: fail,
    spawn: fail,
    fetch: fail,
    readClipboard: fail,
    notify: fail,
    mcpCall: fail,
    mediaStat: fail,
  };
};

// Model args that pass validation and policy, and whether a host failure may be fed back.
const CALLS: ReadonlyArray<readonly [string, Record<string, unknown>, boolean]> = [
  ['git_commit', { message: 'm' }, false],
  ['git_status', {}, false],
  ['http_request', { url: 'https://api.example/x' }, false],
  ['invoke_agent', { nodeId: 'n' }, true],
  ['list_directory', { path: '.' }, true],
  ['mcp_call', { server: 's', tool: 't' }, false],
  ['notify', { title: 't', body: 'b' }, false],
  ['read_clipboard', {}, false],
  ['read_file', { path: 'a' }, true],
  ['read_media', { handle }, true],
  ['run_command', { command: 'ls', args: ['-l'] }, false],
  ['web_search', { query: 'q' }, false],
  ['write_file', { path: 'a', content: '' }, false],
];

describe('BUILTIN_TOOLS in createToolRegistry', () => {
  it('registers the whole catalog and lists the ids sorted', () => {
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: {} });

    expect(registry.list()).toEqual(BUILTIN_TOOLS.map((tool) => tool.id));
  });

  it('covers every built-in in the host-failure table', () => {
    expect(CALLS.map(([id]) => id)).toEqual(BUILTIN_TOOLS.map((tool) => tool.id));
  });

  it.each(CALLS)(
    'a %s host failure is a tool_failed that is recoverable only for a read',
    async (name, args, recoverable) => {
      const { host } = stubHost(failingHost());
      const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });

      const error = await registry
        .dispatch({ id: 'c1', name, args }, openContext())
        .catch((caught: unknown) => caught);

      expect(error).toMatchObject({ code: 'tool_failed', recoverable });
      expect(classifyToolError(error)).toBe(recoverable ? 'recoverable' : 'fatal');
      expect(String((error as Error).message)).not.toContain('host broke');
    },
  );

  it('drops a config-only cwd, timeoutMs and env the model sends, keeping the pinned cwd', async () => {
    const { host, calls } = stubHost();
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
    const args = {
      command: 'ls',
      args: ['-l'],
      cwd: '/',
      timeoutMs: 600_000,
      env: { LD_PRELOAD: 'x' },
    };

    await registry.dispatch(
      { id: 'c1', name: 'run_command', args },
      openContext({ config: { parameters: { cwd: 'app' } } }),
    );

    expect(onlyCall(calls, 'process.spawn')).toEqual(['ls', ['-l'], {}, { cwd: 'app' }, undefined]);
  });

  it('drops a model-sent endpoint and credential for web_search, using the configured ones', async () => {
    const body = JSON.stringify({ results: [] });
    const { host, calls } = stubHost({ fetch: () => ({ status: 200, headers: {}, body }) });
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
    const args = { query: 'q', endpoint: 'https://evil.example/', credentialRef: 'OTHER' };

    await registry.dispatch({ id: 'c1', name: 'web_search', args }, openContext());

    expect(onlyCall(calls, 'egress.fetch')[0]).toEqual({
      method: 'GET',
      url: `${endpoint}?q=q`,
      headers: { accept: 'application/json' },
    });
  });

  it('drops model-sent git flags for git_status', async () => {
    const { host, calls } = stubHost();
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });

    await registry.dispatch(
      { id: 'c1', name: 'git_status', args: { command: 'diff', args: ['--ext-diff'] } },
      openContext(),
    );

    expect(onlyCall(calls, 'process.spawn')[1]).toEqual([
      ...GIT_NO_REPO_PROGRAMS,
      '--no-optional-locks',
      'diff',
      '--no-ext-diff',
      '--no-textconv',
    ]);
  });

  it('refuses git_commit with gate_required before any host call when the gate did not approve', async () => {
    const { host, calls } = stubHost();
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });

    const attempt = registry.dispatch(
      { id: 'c1', name: 'git_commit', args: { message: 'm' } },
      openContext({ gateApproved: false }),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolPolicyError);
    await expect(attempt).rejects.toMatchObject({ reason: 'gate_required' });
    expect(calls).toEqual([]);
  });

  it.each([
    ['run_command', { command: 'ls', args: ['-la'] }, 'command_not_allowed'],
    ['run_command', { command: 'ls', args: ['-l', '-a'] }, 'command_not_allowed'],
    ['http_request', { url: 'https://other.example/' }, 'domain_not_allowed'],
    ['http_request', { url: 'http://api.example/' }, 'insecure_url'],
  ])('judges the %s target against the policy (%j → %s)', async (name, args, reason) => {
    const { host, calls } = stubHost();
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });

    await expect(registry.dispatch({ id: 'c1', name, args }, openContext())).rejects.toMatchObject({
      reason,
    });
    expect(calls).toEqual([]);
  });

  it('splits read_media bytes off into media attachments, keeping the result handle-only', async () => {
    const { host } = stubHost({ mediaStat: () => mediaInfo });
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });

    const outcome = await registry.dispatch(
      { id: 'c1', name: 'read_media', args: { handle } },
      openContext(),
    );

    expect(outcome.output).toEqual({
      handle,
      mimeType: 'image/png',
      sizeBytes: 4,
      range: { start: 0, end: 3 },
    });
    expect(JSON.stringify(outcome.output)).not.toContain('data');
    expect(outcome.mediaAttachments).toBeDefined();
  });

  it('feeds a media scope denial back as recoverable', async () => {
    const { host } = stubHost({ mediaStat: () => mediaInfo });
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });

    const error = await registry
      .dispatch(
        { id: 'c1', name: 'read_media', args: { handle } },
        openContext({ mediaScope: 'run-2' }),
      )
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ reason: 'media_scope_denied' });
    expect(classifyToolError(error)).toBe('recoverable');
  });

  it('asks approval for governed built-ins only, with the documented action class', async () => {
    const asked: string[] = [];
    const body = JSON.stringify({ results: [] });
    const { host } = stubHost({
      mediaStat: () => mediaInfo,
      fetch: () => ({ status: 200, headers: {}, body }),
    });
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
    const approval = {
      confirm: async (request: { toolId: string; action: string }) => {
        asked.push(`${request.toolId}:${request.action}`);
        return { outcome: 'approve' as const };
      },
    };

    for (const [name, args] of CALLS) {
      await registry.dispatch(
        { id: 'c1', name, args },
        openContext({ approval, invokeAgent: async () => 'ok' }),
      );
    }

    expect(asked).toEqual([
      'http_request:egress',
      'mcp_call:egress',
      'notify:os',
      'read_clipboard:os',
      'run_command:process',
      'web_search:egress',
      'write_file:fs_write',
    ]);
  });
});
