import {
  classifyToolError,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolExecutionError,
  ToolUnavailableError,
  type AnyToolDef,
  type ToolDispatchContext,
} from '@toolhost/core';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpArm, type McpArm } from './create-mcp-arm.js';
import { MCP_BASE_ENV_KEYS } from './resolve-declared-values.js';
import { fixtureServerDeclaration } from './test-support/fixture-server-declaration.js';

const CONTEXT: ToolDispatchContext = {
  nodeId: 'test',
  grantedToolIds: new Set(),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
};

describe('createMcpArm against the fixture server', () => {
  let arm: McpArm;
  beforeAll(async () => {
    process.env.TOOLHOST_TEST_AMBIENT_PROBE = 'ambient';
    process.env.TOOLHOST_TEST_TOKEN = 'token-from-the-secret-store';
    arm = await createMcpArm({
      servers: {
        fx: fixtureServerDeclaration({
          env: { FIXTURE_TOKEN: { credentialRef: 'env:TOOLHOST_TEST_TOKEN' } },
        }),
        quick: fixtureServerDeclaration({ tools: ['slow'], callTimeoutMs: 300 }),
      },
    });
  });
  afterAll(async () => {
    await arm.close();
    delete process.env.TOOLHOST_TEST_AMBIENT_PROBE;
    delete process.env.TOOLHOST_TEST_TOKEN;
  });

  const tool = (id: string): AnyToolDef => {
    const found = arm.tools.find((candidate) => candidate.id === id);
    if (found === undefined) throw new Error(`missing ${id}`);
    return found;
  };

  it('discovers tools across every tools/list page', () => {
    const ids = arm.tools.map((candidate) => candidate.id);

    expect(ids).toEqual([
      'mcp_fx_echo',
      'mcp_fx_fails',
      'mcp_fx_crash',
      'mcp_fx_slow',
      'mcp_fx___proto__',
      'mcp_fx_env',
      'mcp_fx_spawn_child',
      'mcp_fx_hostile_pattern',
      'mcp_fx_meta',
      'mcp_quick_slow',
    ]);
  });

  it('skips both tools of a colliding id and reports each, never registering either', async () => {
    expect(arm.report.skipped).toContainEqual({
      server: 'fx',
      tool: 'dup.name',
      id: 'mcp_fx_dup_name',
      reason: 'collision',
    });
    expect(arm.report.skipped).toContainEqual({
      server: 'fx',
      tool: 'dup_name',
      id: 'mcp_fx_dup_name',
      reason: 'collision',
    });
    expect(arm.tools.some((candidate) => candidate.id === 'mcp_fx_dup_name')).toBe(false);
    // Nor does mcp_call reach either by its server name.
    await expect(
      arm.capability.call({ server: 'fx', tool: 'dup_name', args: {} }),
    ).rejects.toMatchObject({ reason: 'unknown_tool' });
  });

  it('drops a tool whose schema cannot be compiled, with a reason', () => {
    expect(arm.report.skipped).toContainEqual({
      server: 'fx',
      tool: 'bad_schema',
      id: 'mcp_fx_bad_schema',
      reason: 'invalid_schema',
    });
  });

  it('honours a per-server tools allowlist', () => {
    expect(arm.report.servers).toContainEqual({ name: 'quick', status: 'connected', toolCount: 1 });
    expect(arm.report.skipped).toContainEqual({
      server: 'quick',
      tool: 'echo',
      id: 'mcp_quick_echo',
      reason: 'not_allowlisted',
    });
  });

  it('governs discovered tools as egress mcp with the server schema as visible params', () => {
    const echo = tool('mcp_fx_echo');

    expect(echo.source).toBe('mcp');
    expect(echo.policy).toEqual({
      egress: 'mcp',
      fsScoped: false,
      spawnsProcess: false,
      requiresGateApproval: false,
    });
    expect(echo.llmVisibleParams).toMatchObject({ required: ['text'] });
  });

  it.each([
    ['a wrong type', { text: 42 }, 'text', 'invalid_type'],
    ['a missing field', {}, 'text', 'required'],
    ['an unknown key', { text: 'a', extra: 'sk-secret-value' }, '(root)', 'unrecognized_key'],
    ['a non-object', 'sk-secret-value', '(root)', 'invalid_type'],
  ])('parseArgs refuses %s naming the field, never the value', (_case, raw, field, problem) => {
    const attempt = () => tool('mcp_fx_echo').parseArgs(raw);

    expect(attempt).toThrow(ToolArgsInvalidError);
    try {
      attempt();
    } catch (error) {
      expect((error as ToolArgsInvalidError).issues).toContainEqual({ field, problem });
      expect((error as Error).message).not.toMatch(/secret|42/);
    }
  });

  it('dispatches a discovered tool through host.mcp', async () => {
    const echo = tool('mcp_fx_echo');

    const result = await echo.dispatch(
      echo.parseArgs({ text: 'hello' }),
      { mcp: arm.capability },
      CONTEXT,
    );

    expect(result).toBe('hello');
  });

  it('fails closed with ToolUnavailableError when the host has no mcp arm', async () => {
    const attempt = tool('mcp_fx_echo').dispatch({ text: 'x' }, {}, CONTEXT);

    await expect(attempt).rejects.toBeInstanceOf(ToolUnavailableError);
  });

  it('feeds an isError result back as a correctable error with its bounded text', async () => {
    const attempt = arm.capability.call({ server: 'fx', tool: 'fails', args: {} });

    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({
      reason: 'tool_reported_error',
      correctable: true,
      toolId: 'mcp_fx_fails',
    });
    expect((error as ToolExecutionError).detail).toContain('out of range');
    expect(classifyToolError(error)).toBe('correctable');
  });

  it('cancels a slow call on abort and keeps the server usable', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);

    const attempt = arm.capability.call(
      { server: 'fx', tool: 'slow', args: { ms: 20_000 } },
      controller.signal,
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolCancelledError);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(
      arm.capability.call({ server: 'fx', tool: 'echo', args: { text: 'still here' } }),
    ).resolves.toBe('still here');
  });

  it('times a call out at the server deadline', async () => {
    const attempt = arm.capability.call({ server: 'quick', tool: 'slow', args: { ms: 20_000 } });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_failed', reason: 'timed_out' });
  });

  it.each([
    ['an unknown server', { server: 'nope', tool: 'echo' }, 'unknown_server'],
    ['a prototype server name', { server: '__proto__', tool: 'echo' }, 'unknown_server'],
    ['a prototype tool name', { server: 'fx', tool: 'constructor' }, 'unknown_tool'],
    ['a tool dropped for its schema', { server: 'fx', tool: 'bad_schema' }, 'unknown_tool'],
    ['a tool outside the allowlist', { server: 'quick', tool: 'echo' }, 'unknown_tool'],
  ])('refuses mcp_call to %s', async (_case, target, reason) => {
    const attempt = arm.capability.call({ ...target, args: {} });

    await expect(attempt).rejects.toMatchObject({ reason, correctable: true });
  });

  it('validates mcp_call arguments against the tool schema', async () => {
    const attempt = arm.capability.call({ server: 'fx', tool: 'echo', args: { text: 1 } });

    await expect(attempt).rejects.toBeInstanceOf(ToolArgsInvalidError);
  });

  it('gives the server the minimal base env plus its declared credential only', async () => {
    const output = await arm.capability.call({ server: 'fx', tool: 'env', args: {} });

    const { keys, token } = JSON.parse(String(output)) as { keys: string[]; token: string };
    // PWD: bwrap sets it on `--chdir` inside the sandbox (the working directory, not a secret).
    const expected = [...MCP_BASE_ENV_KEYS, 'FIXTURE_TOKEN', 'PWD'];
    expect(keys.filter((key) => !expected.includes(key))).toEqual([]);
    expect(keys).not.toContain('TOOLHOST_TEST_AMBIENT_PROBE');
    expect(token).toBe('token-from-the-secret-store');
  });
});

describe('createMcpArm lifecycle', () => {
  it('reports a server that died mid-call as server_exited, then fails fast', async () => {
    const arm = await createMcpArm({ servers: { fx: fixtureServerDeclaration() } });
    try {
      const crash = arm.capability.call({ server: 'fx', tool: 'crash', args: {} });

      await expect(crash).rejects.toMatchObject({ code: 'tool_failed', reason: 'server_exited' });
      await expect(
        arm.capability.call({ server: 'fx', tool: 'echo', args: { text: 'x' } }),
      ).rejects.toMatchObject({
        reason: 'server_exited',
      });
    } finally {
      await arm.close();
    }
  });

  it.each([
    ['exits 137 itself', { FIXTURE_CRASH_EXIT: '137' }, 'the server exited with code 137'],
    ['exits 129 itself', { FIXTURE_CRASH_EXIT: '129' }, 'the server exited with code 129'],
    [
      'is killed by SIGKILL',
      { FIXTURE_CRASH_SIGNAL: 'SIGKILL' },
      'the server was killed by SIGKILL',
    ],
  ])('says how a sandboxed server that %s ended', async (_case, env, detail) => {
    const arm = await createMcpArm({
      servers: { fx: fixtureServerDeclaration({ env }) },
      sandbox: 'required',
    });
    try {
      const crash = arm.capability.call({ server: 'fx', tool: 'crash', args: {} });

      await expect(crash).rejects.toMatchObject({ reason: 'server_exited', detail });
      await expect(
        arm.capability.call({ server: 'fx', tool: 'echo', args: { text: 'x' } }),
      ).rejects.toMatchObject({ reason: 'server_exited', detail });
    } finally {
      await arm.close();
    }
  });

  // The reaping outside the sandbox; inside it, bwrap's PID namespace takes the tree (below).
  it('reaps the server and the processes it spawned on close', async () => {
    const arm = await createMcpArm({ servers: { fx: fixtureServerDeclaration() }, sandbox: 'off' });
    const childPid = Number(
      await arm.capability.call({ server: 'fx', tool: 'spawn_child', args: {} }),
    );
    expect(isAlive(childPid)).toBe(true);

    await arm.close();

    await expect.poll(() => isAlive(childPid), { timeout: 3_000 }).toBe(false);
  });

  it('reaps what a server spawned when the server dies on its own', async () => {
    const arm = await createMcpArm({ servers: { fx: fixtureServerDeclaration() }, sandbox: 'off' });
    try {
      const childPid = Number(
        await arm.capability.call({ server: 'fx', tool: 'spawn_child', args: {} }),
      );
      expect(isAlive(childPid)).toBe(true);

      await arm.capability.call({ server: 'fx', tool: 'crash', args: {} }).catch(() => undefined);

      await expect.poll(() => isAlive(childPid), { timeout: 3_000 }).toBe(false);
    } finally {
      await arm.close();
    }
  });

  it.each([
    [
      'a command that does not exist',
      fixtureServerDeclaration({ command: '/nonexistent/mcp-server' }),
      'spawn_failed',
    ],
    [
      'an unresolvable credentialRef',
      fixtureServerDeclaration({
        env: { T: { credentialRef: 'env:TOOLHOST_TEST_UNSET_VARIABLE' } },
      }),
      'credential_unresolved',
    ],
    [
      'a plain-http url',
      { transport: 'http', url: 'http://example.com/mcp' } as const,
      'insecure_url',
    ],
    [
      'an http url with userinfo',
      { transport: 'http', url: 'https://user:pw@example.com/mcp' } as const,
      'invalid_url',
    ],
  ])('reports %s as a failed server without throwing', async (_case, declaration, reason) => {
    const arm = await createMcpArm({ servers: { broken: declaration } });

    expect(arm.report.servers).toEqual([
      { name: 'broken', status: 'failed', reason, toolCount: 0 },
    ]);
    expect(arm.tools).toEqual([]);
    await arm.close();
  });

  it('gives up on a server that never answers initialize, and stops it', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'toolhost-mcp-silent-')), 'pid');
    const script = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`;
    const silent = fixtureServerDeclaration({ args: ['-e', script] });

    // Off: the pid it writes must be a host pid (the sandboxed kill is covered by bwrap's tests).
    const arm = await createMcpArm({
      servers: { silent },
      connectTimeoutMs: 300,
      killGraceMs: 100,
      sandbox: 'off',
    });

    expect(arm.report.servers).toEqual([
      { name: 'silent', status: 'failed', reason: 'connect_failed', toolCount: 0 },
    ]);
    const pid = Number(await readFile(pidFile, 'utf8'));
    await expect.poll(() => isAlive(pid), { timeout: 3_000 }).toBe(false);
    await arm.close();
  });

  it('refuses a server name that is not a plain identifier at creation', async () => {
    const attempt = createMcpArm({ servers: { 'a/b': fixtureServerDeclaration() } });

    await expect(attempt).rejects.toThrow(TypeError);
  });

  it("refuses a server's own network.maxConnections: the total is the host's", async () => {
    const declaration = fixtureServerDeclaration({
      network: { allowedDomains: ['api.example.com'], maxConnections: 4096 },
    });

    const attempt = createMcpArm({ servers: { wide: declaration } });

    await expect(attempt).rejects.toThrow(/network.maxConnections is host-wide/);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('createMcpArm with ids that collide across servers', () => {
  it('skips the id on both servers: `docs` + `search_query` and `docs_search` + `query`', async () => {
    const arm = await createMcpArm({
      servers: {
        docs: fixtureServerDeclaration({
          env: { FIXTURE_EXTRA_TOOL: 'search_query' },
          tools: ['search_query', 'echo'],
        }),
        docs_search: fixtureServerDeclaration({
          env: { FIXTURE_EXTRA_TOOL: 'query' },
          tools: ['query'],
        }),
      },
    });
    try {
      expect(arm.tools.map((candidate) => candidate.id)).toEqual(['mcp_docs_echo']);
      expect(arm.report.skipped.filter((entry) => entry.reason === 'collision')).toEqual([
        { server: 'docs', tool: 'search_query', id: 'mcp_docs_search_query', reason: 'collision' },
        { server: 'docs_search', tool: 'query', id: 'mcp_docs_search_query', reason: 'collision' },
      ]);
      for (const [server, name] of [
        ['docs', 'search_query'],
        ['docs_search', 'query'],
      ] as const) {
        await expect(arm.capability.call({ server, tool: name, args: {} })).rejects.toMatchObject({
          reason: 'unknown_tool',
        });
      }
    } finally {
      await arm.close();
    }
  });
});
