import { execFileSync } from 'node:child_process';
import { chmod, link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_TOOLS,
  classifyToolError,
  createToolRegistry,
  ToolDispatchError,
  type ToolDispatchContext,
  type ToolErrorClass,
  type ToolHost,
  type ToolRegistry,
} from '@toolhost/core';
import { createNodeToolHost, type NodeToolHostHandle } from './create-node-tool-host.js';
import { mapLookup } from './egress/test-support/map-lookup.js';
import { createTestCertificate } from './egress/test-support/test-certificate.js';
import {
  startTestHttpsServer,
  type TestHttpsServer,
} from './egress/test-support/test-https-server.js';
import { fixtureServerDeclaration } from './mcp/test-support/fixture-server-declaration.js';
import { createOsArm } from './os/create-os-arm.js';

// Every error a Node host arm throws, driven for real through the registry, with the flag the
// failure ladder reads. The spec feeds back exactly two denials (the fs scope escape and
// `media_scope_denied`) and an idempotent read's failure; every governed or side-effecting
// failure ends the turn.

interface Case {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Config-only parameters (`cwd`, `timeoutMs`, `env`), merged last. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly mediaScope?: string;
  readonly reason: string;
  readonly recoverable: boolean;
  readonly errorClass: ToolErrorClass;
}

const fatal = (reason: string): Pick<Case, 'reason' | 'recoverable' | 'errorClass'> => ({
  reason,
  recoverable: false,
  errorClass: 'fatal',
});
// A model-fixable mistake (like an unknown tool id): fed back by the correction budget, not as
// a recoverable failure.
const correctable = (reason: string): Pick<Case, 'reason' | 'recoverable' | 'errorClass'> => ({
  reason,
  recoverable: false,
  errorClass: 'correctable',
});
const recoverable = (reason: string): Pick<Case, 'reason' | 'recoverable' | 'errorClass'> => ({
  reason,
  recoverable: true,
  errorClass: 'recoverable',
});

const run = (parameters: Readonly<Record<string, unknown>>, command = 'pwd'): Partial<Case> => ({
  tool: 'run_command',
  args: { command, args: [] },
  parameters,
});

const FS_CASES: readonly (readonly [string, Case])[] = [
  [
    'read: a ../ escape',
    { tool: 'read_file', args: { path: '../outside/secret.txt' }, ...recoverable('scope_escape') },
  ],
  [
    'read: an absolute path outside',
    { tool: 'read_file', args: { path: '/etc/hostname' }, ...recoverable('scope_escape') },
  ],
  [
    'read: the read floor',
    { tool: 'read_file', args: { path: '.env' }, ...fatal('protected_path') },
  ],
  [
    'read: a symlink out of the root',
    { tool: 'read_file', args: { path: 'link.txt' }, ...fatal('symlink_refused') },
  ],
  [
    'read: a hard link',
    { tool: 'read_file', args: { path: 'hard.txt' }, ...fatal('hard_link_refused') },
  ],
  ['read: a NUL byte', { tool: 'read_file', args: { path: 'src/\0x' }, ...fatal('invalid_path') }],
  [
    'read: a missing file',
    { tool: 'read_file', args: { path: 'missing.txt' }, ...recoverable('not_found') },
  ],
  [
    'read: a directory',
    { tool: 'read_file', args: { path: 'src' }, ...recoverable('is_directory') },
  ],
  [
    'read: a FIFO',
    { tool: 'read_file', args: { path: 'pipe' }, ...recoverable('unsupported_file_type') },
  ],
  [
    'read: under a file',
    { tool: 'read_file', args: { path: 'src/index.ts/x' }, ...recoverable('not_a_directory') },
  ],
  [
    'list: a ../ escape',
    { tool: 'list_directory', args: { path: '..' }, ...recoverable('scope_escape') },
  ],
  [
    'list: the read floor',
    { tool: 'list_directory', args: { path: '.ssh' }, ...fatal('protected_path') },
  ],
  [
    'list: a symlink out of the root',
    { tool: 'list_directory', args: { path: 'linkdir' }, ...fatal('symlink_refused') },
  ],
  [
    'list: a missing directory',
    { tool: 'list_directory', args: { path: 'missing' }, ...recoverable('not_found') },
  ],
  [
    'list: a file',
    { tool: 'list_directory', args: { path: 'src/index.ts' }, ...recoverable('not_a_directory') },
  ],
  // Refused lexically before the walk opens anything: the spec's pure scope-tier escape.
  [
    'write: a ../ escape',
    {
      tool: 'write_file',
      args: { path: '../outside/new.txt', content: 'x' },
      ...recoverable('scope_escape'),
    },
  ],
  [
    'write: the write floor',
    {
      tool: 'write_file',
      args: { path: '.git/hooks/pre-commit', content: 'x' },
      ...fatal('protected_path'),
    },
  ],
  [
    'write: through an alias of .git',
    {
      tool: 'write_file',
      args: { path: 'gitalias/hooks/pre-commit', content: 'x' },
      ...fatal('protected_path'),
    },
  ],
  [
    'write: a symlinked leaf',
    { tool: 'write_file', args: { path: 'link.txt', content: 'x' }, ...fatal('symlink_refused') },
  ],
  [
    'write: a directory alias out of the root',
    {
      tool: 'write_file',
      args: { path: 'linkdir/new.txt', content: 'x' },
      ...fatal('symlink_refused'),
    },
  ],
  [
    'write: a hard link',
    { tool: 'write_file', args: { path: 'hard.txt', content: 'x' }, ...fatal('hard_link_refused') },
  ],
  [
    'write: a NUL byte',
    { tool: 'write_file', args: { path: 'src/\0x', content: 'x' }, ...fatal('invalid_path') },
  ],
  [
    'write: a directory',
    { tool: 'write_file', args: { path: 'src', content: 'x' }, ...fatal('is_directory') },
  ],
  [
    'write: a missing parent',
    { tool: 'write_file', args: { path: 'nowhere/x.txt', content: 'x' }, ...fatal('not_found') },
  ],
  [
    'write: a FIFO',
    {
      tool: 'write_file',
      args: { path: 'pipe', content: 'x', append: true },
      ...fatal('unsupported_file_type'),
    },
  ],
];

const PROCESS_CASES: readonly (readonly [string, Case])[] = [
  ['cwd: a ../ escape', { ...run({ cwd: '..' }), ...fatal('scope_escape') } as Case],
  ['cwd: an absolute path outside', { ...run({ cwd: '/etc' }), ...fatal('scope_escape') } as Case],
  [
    'cwd: a symlink out of the root',
    { ...run({ cwd: 'linkdir' }), ...fatal('symlink_refused') } as Case,
  ],
  ['cwd: the read floor', { ...run({ cwd: '.ssh' }), ...fatal('protected_path') } as Case],
  ['cwd: missing', { ...run({ cwd: 'missing' }), ...fatal('not_found') } as Case],
  ['cwd: a file', { ...run({ cwd: 'src/index.ts' }), ...fatal('not_a_directory') } as Case],
  [
    'executable: a relative path out of the root',
    { ...run({}, '../outside/tool.sh'), ...fatal('scope_escape') } as Case,
  ],
  [
    'executable: not on PATH',
    { ...run({}, 'no-such-command-here'), ...fatal('command_not_found') } as Case,
  ],
  [
    'executable: a relative path that does not exist',
    { ...run({}, './missing.sh'), ...fatal('command_not_found') } as Case,
  ],
  [
    'env: a refused variable',
    { ...run({ env: { LD_PRELOAD: 'x.so' } }), ...fatal('env_not_allowed') } as Case,
  ],
  [
    'spawn: a timeout',
    {
      ...run({ timeoutMs: 50 }, 'sleep'),
      args: { command: 'sleep', args: ['5'] },
      ...fatal('timed_out'),
    } as Case,
  ],
];

describe('the recoverable flag of every host arm error', () => {
  let base = '';
  let root = '';
  let handle: NodeToolHostHandle;
  let registry: ToolRegistry;
  let server: TestHttpsServer;
  let closedPort = 0;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-error-classes-')));
    root = path.join(base, 'app');
    const outside = path.join(base, 'outside');
    await mkdir(path.join(root, 'src'), { recursive: true });
    await mkdir(path.join(root, '.ssh'));
    await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(root, 'src', 'index.ts'), 'export {};\n');
    await writeFile(path.join(root, '.env'), 'FAKE=1');
    await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE');
    await writeFile(path.join(outside, 'tool.sh'), '#!/bin/sh\n');
    await chmod(path.join(outside, 'tool.sh'), 0o755);
    await link(path.join(outside, 'secret.txt'), path.join(root, 'hard.txt'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    await symlink(outside, path.join(root, 'linkdir'));
    await symlink('.git', path.join(root, 'gitalias'));
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
    server.handler = (request, response) => {
      // Binary: a text body over the cap is cut with a marker, a binary one cannot be.
      if (request.url === '/big') {
        response.setHeader('content-type', 'application/octet-stream');
        return void response.end(Buffer.alloc(4096, 0xff));
      }
      if (request.url === '/loop') {
        response.statusCode = 302;
        response.setHeader('location', '/loop');
        return void response.end();
      }
      if (request.url === '/hang') return;
      response.end('ok');
    };
    closedPort = await unusedPort();
    handle = await createNodeToolHost({
      root,
      stateDir: path.join(base, 'state'),
      runId: 'error-classes',
      process: { sandbox: 'off' },
      egress: {
        lookup: mapLookup({
          'egress.test': ['127.0.0.1'],
          'private.test': ['10.0.0.1'],
        }),
        dangerouslyAllowRanges: ['127.0.0.1/32'],
        ca: certificate.ca,
        maxBodyBytes: 1024,
        maxRedirects: 2,
        timeoutMs: 500,
      },
      mcp: {
        servers: {
          fx: fixtureServerDeclaration({ tools: ['echo', 'fails'] }),
          quick: fixtureServerDeclaration({ tools: ['slow'], callTimeoutMs: 300 }),
          doomed: fixtureServerDeclaration({ tools: ['crash'] }),
        },
      },
    });
    registry = createToolRegistry({
      tools: [...BUILTIN_TOOLS, ...handle.mcpTools],
      host: handle.host,
    });
  }, 60_000);
  afterAll(async () => {
    await handle.close();
    await server.close();
    await rm(base, { recursive: true, force: true });
  });

  const dispatchFailure = async (registryToUse: ToolRegistry, entry: Case): Promise<unknown> => {
    const context: ToolDispatchContext = {
      nodeId: 'error-classes',
      grantedToolIds: new Set(registryToUse.list()),
      config: entry.parameters === undefined ? {} : { parameters: entry.parameters },
      toolPolicy: {
        allowedCommands: [
          'pwd',
          '../outside/tool.sh',
          'no-such-command-here',
          './missing.sh',
          'sleep 5',
        ],
        allowedDomains: ['egress.test', 'private.test', 'unknown.test'],
        // mcp_call's own host errors: the policy lets these through to the host.
        allowedMcpTools: ['nope/*', 'fx/*'],
      },
      fsScope: 'sandboxed',
      gateApproved: false,
      ...(entry.mediaScope === undefined ? {} : { mediaScope: entry.mediaScope }),
    };
    return registryToUse.dispatch({ id: 'call', name: entry.tool, args: entry.args }, context).then(
      () => new Error('the call succeeded'),
      (error: unknown) => error,
    );
  };

  const expectClass = (error: unknown, entry: Case): void => {
    expect(error).toBeInstanceOf(ToolDispatchError);
    expect({
      reason: (error as { reason?: string }).reason,
      recoverable: (error as ToolDispatchError).recoverable,
      errorClass: classifyToolError(error),
    }).toEqual({
      reason: entry.reason,
      recoverable: entry.recoverable,
      errorClass: entry.errorClass,
    });
  };

  it.each(FS_CASES)('fs %s', async (_case, entry) => {
    expectClass(await dispatchFailure(registry, entry), entry);
  });

  it.each(PROCESS_CASES)('process %s', async (_case, entry) => {
    expectClass(await dispatchFailure(registry, entry), entry);
  });

  it.each([
    ['plain http', 'http://egress.test/', fatal('insecure_url')],
    ['a host outside the allowlist', 'https://other.test/', fatal('domain_not_allowed')],
    ['a private address', 'https://private.test/', fatal('ssrf_blocked')],
    ['a name that does not resolve', 'https://unknown.test/', fatal('not_found')],
    ['a body over the cap', '/big', fatal('too_large')],
    ['a redirect loop', '/loop', fatal('too_many_redirects')],
    ['a server that never answers', '/hang', fatal('timed_out')],
    ['a refused connection', 'closed', fatal('network')],
  ])('egress: %s', async (_case, target, expected) => {
    const url = target.startsWith('/')
      ? `https://egress.test:${server.port}${target}`
      : target === 'closed'
        ? `https://egress.test:${closedPort}/`
        : target;
    const entry: Case = { tool: 'http_request', args: { url }, ...expected };

    expectClass(await dispatchFailure(registry, entry), entry);
  });

  it('egress: a header that could split the request', async () => {
    const entry: Case = {
      tool: 'http_request',
      args: { url: `https://egress.test:${server.port}/`, headers: { 'x-a': 'v\r\nx-b: y' } },
      ...fatal('header_not_allowed'),
    };

    expectClass(await dispatchFailure(registry, entry), entry);
  });

  it.each([
    [
      'an unknown server',
      {
        tool: 'mcp_call',
        args: { server: 'nope', tool: 'echo', args: {} },
        ...correctable('unknown_server'),
      },
    ],
    [
      'an unknown tool',
      {
        tool: 'mcp_call',
        args: { server: 'fx', tool: 'nope', args: {} },
        ...correctable('unknown_tool'),
      },
    ],
    [
      'a call that times out',
      { tool: 'mcp_quick_slow', args: { ms: 5000 }, ...fatal('timed_out') },
    ],
    [
      'a server that exits mid-call',
      { tool: 'mcp_doomed_crash', args: {}, ...fatal('server_exited') },
    ],
  ] as const)('mcp: %s', async (_case, entry: Case) => {
    expectClass(await dispatchFailure(registry, entry), entry);
  });

  it('mcp: a tool-reported error is correctable, not recoverable', async () => {
    const entry: Case = { tool: 'mcp_fx_fails', args: {}, ...correctable('tool_reported_error') };

    expectClass(await dispatchFailure(registry, entry), entry);
  });

  it.each([
    ['no media scope', undefined],
    ['a scope the handle was never stored under', 'run:other'],
  ])('media: %s is the recoverable media_scope_denied', async (_case, mediaScope) => {
    const entry: Case = {
      tool: 'read_media',
      args: { handle: `media://sha256-${'0'.repeat(64)}` },
      ...(mediaScope === undefined ? {} : { mediaScope }),
      ...recoverable('media_scope_denied'),
    };

    expectClass(await dispatchFailure(registry, entry), entry);
  });

  describe('os', () => {
    let helpers = '';
    beforeAll(async () => {
      helpers = path.join(base, 'helpers');
      for (const [directory, script] of [
        ['failing', '#!/bin/sh\nexit 3\n'],
        ['slow', '#!/bin/sh\nexec /bin/sleep 5\n'],
      ] as const) {
        await mkdir(path.join(helpers, directory), { recursive: true });
        for (const name of ['notify-send', 'xclip']) {
          await writeFile(path.join(helpers, directory, name), script);
          await chmod(path.join(helpers, directory, name), 0o755);
        }
      }
      await mkdir(path.join(helpers, 'empty'));
    });

    const osRegistry = (directory: string): ToolRegistry => {
      const host: ToolHost = {
        os: createOsArm({
          hostEnv: { PATH: path.join(helpers, directory) },
          platform: 'linux',
          timeoutMs: 200,
        }),
      };
      return createToolRegistry({ tools: BUILTIN_TOOLS, host });
    };

    it.each([
      ['notify', { title: 't', body: 'b' }, 'failing', 'helper_failed'],
      ['read_clipboard', {}, 'failing', 'helper_failed'],
      ['notify', { title: 't', body: 'b' }, 'slow', 'timed_out'],
      ['read_clipboard', {}, 'slow', 'timed_out'],
      ['notify', { title: 't', body: 'b' }, 'empty', 'not_found'],
      ['read_clipboard', {}, 'empty', 'not_found'],
    ])('%s with a %s helper: %s, fatal', async (tool, args, directory, reason) => {
      const entry: Case = { tool, args, ...fatal(reason) };

      expectClass(await dispatchFailure(osRegistry(directory), entry), entry);
    });
  });
});

// A loopback port nothing listens on: bind port 0, note it, close.
async function unusedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
