import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ToolPolicy } from '../dispatch-context.js';
import { ToolPolicyError } from '../errors.js';
import type { AnyToolDef, PolicyTarget } from '../tool-def.js';
import { enforcePolicy } from './enforce-policy.js';
import { commandTool, httpTool, stubTool } from './test-support/stub-tools.js';

const runTool = commandTool().tool;
const http = httpTool().tool;

function check(
  tool: AnyToolDef,
  target: PolicyTarget | undefined,
  toolPolicy: ToolPolicy,
  gateApproved = false,
): void {
  enforcePolicy(tool, target, { toolPolicy, gateApproved, grantedToolIds: new Set() });
}

describe('enforcePolicy: commands', () => {
  it.each<[string, PolicyTarget | undefined, ToolPolicy]>([
    ['no allowlist at all', { command: 'ls' }, {}],
    ['empty allowlists', { command: 'ls' }, { allowedCommands: [], allowedCommandGlobs: [] }],
    ['a different string', { command: 'ls -la' }, { allowedCommands: ['ls'] }],
    ['an exact prefix only', { command: 'ls; rm -rf /' }, { allowedCommands: ['ls'] }],
    ['a case variant', { command: 'LS' }, { allowedCommands: ['ls'] }],
    [
      'a glob that does not cover it',
      { command: 'git push' },
      { allowedCommandGlobs: ['git log *'] },
    ],
    [
      'a launcher through a glob',
      { command: 'env x', argv: ['env', 'x'] },
      { allowedCommandGlobs: ['env *'] },
    ],
    [
      'a launcher found by splitting the command',
      { command: 'bash -c id' },
      { allowedCommandGlobs: ['bash *'] },
    ],
    ['an empty command', { command: '' }, { allowedCommands: [''] }],
    ['a target with no command', {}, { allowedCommands: ['ls'] }],
    [
      'an argument holding a space that joins into an exact entry',
      { command: 'npm run test', argv: ['npm', 'run test'] },
      { allowedCommands: ['npm run test'] },
    ],
    [
      'an empty argument that joins into an exact entry',
      { command: 'ls ', argv: ['ls', ''] },
      { allowedCommands: ['ls '] },
    ],
    ['no target from a tool that declares one', undefined, { allowedCommands: ['ls'] }],
  ])('denies %s', (_case, target, toolPolicy) => {
    expect(() => check(runTool, target, toolPolicy)).toThrow(
      expect.objectContaining({ reason: 'command_not_allowed' }),
    );
  });

  it.each<[string, PolicyTarget, ToolPolicy]>([
    ['an exact entry', { command: 'ls -la' }, { allowedCommands: ['ls -la'] }],
    [
      'an exact entry on argument boundaries',
      { command: 'npm run test', argv: ['npm', 'run', 'test'] },
      { allowedCommands: ['npm run test'] },
    ],
    [
      'an exact launcher entry (the author chose it)',
      { command: 'env' },
      { allowedCommands: ['env'] },
    ],
    ['a glob entry', { command: 'git log --oneline' }, { allowedCommandGlobs: ['git log *'] }],
    ['a ? glob', { command: 'ls a' }, { allowedCommandGlobs: ['ls ?'] }],
  ])('allows %s', (_case, target, toolPolicy) => {
    expect(() => check(runTool, target, toolPolicy)).not.toThrow();
  });

  it('skips the allowlist only for a process tool with no target function (config-pinned)', () => {
    const pinned = stubTool({ policy: { spawnsProcess: true } }).tool;

    expect(() => check(pinned, undefined, {})).not.toThrow();
  });

  interface CommandCase {
    readonly id: string;
    readonly command: string;
    readonly args: readonly string[];
    readonly allowlist: readonly string[];
    readonly expect: 'deny' | 'allow';
    readonly rule: string;
  }
  const corpus = (
    JSON.parse(
      readFileSync(new URL('../../../../test/corpus/commands.json', import.meta.url), 'utf8'),
    ) as CommandCase[]
  ).filter((entry) => entry.rule !== 'env');

  it.each(corpus.map((entry) => [entry.id, entry] as const))(
    'corpus %s: a glob allowlist still meets the argument-trap floor',
    (_id, entry) => {
      const argv = [entry.command, ...entry.args];
      const toolPolicy: ToolPolicy = {
        allowedCommands: entry.allowlist,
        allowedCommandGlobs: entry.allowlist.map((binary) => `${binary} *`),
      };

      const attempt = (): void => check(runTool, { command: argv.join(' '), argv }, toolPolicy);

      if (entry.expect === 'deny')
        expect(attempt).toThrow(expect.objectContaining({ reason: 'command_not_allowed' }));
      else expect(attempt).not.toThrow();
    },
  );
});

describe('enforcePolicy: http egress', () => {
  const allowed: ToolPolicy = {
    allowedDomains: ['api.example.com', 'Bücher.example.', 'EXAMPLE.org'],
  };

  it.each<[string, string | undefined, string]>([
    ['no URL', undefined, 'insecure_url'],
    ['an unparseable URL', 'https://exa mple.com/', 'insecure_url'],
    ['a relative URL', '/v1/things', 'insecure_url'],
    ['plain http', 'http://api.example.com/', 'insecure_url'],
    ['another scheme', 'file:///etc/passwd', 'insecure_url'],
    ['userinfo', 'https://user:pw@api.example.com/', 'insecure_url'],
    ['a user name only', 'https://api.example.com@evil.example/', 'insecure_url'],
    ['a host off the list', 'https://evil.example/', 'domain_not_allowed'],
    ['a subdomain of an entry', 'https://x.api.example.com/', 'domain_not_allowed'],
    ['a suffix trick', 'https://api.example.com.evil.example/', 'domain_not_allowed'],
    ['an IP literal', 'https://127.0.0.1/', 'domain_not_allowed'],
  ])('denies %s', (_case, url, reason) => {
    expect(() => check(http, url === undefined ? {} : { url }, allowed)).toThrow(
      expect.objectContaining({ reason }),
    );
  });

  it.each([
    ['an exact host', 'https://api.example.com/v1?q=1'],
    ['any port', 'https://api.example.com:8443/'],
    ['a trailing-dot host', 'https://api.example.com./'],
    ['an upper-case host', 'https://API.EXAMPLE.COM/'],
    ['an upper-case entry', 'https://example.org/'],
    ['an IDN host against an IDN entry', 'https://bücher.example/'],
    ['a punycode host against an IDN entry', 'https://xn--bcher-kva.example/'],
  ])('allows %s', (_case, url) => {
    expect(() => check(http, { url }, allowed)).not.toThrow();
  });

  it('denies every host when the list is empty or absent', () => {
    expect(() => check(http, { url: 'https://api.example.com/' }, {})).toThrow(
      expect.objectContaining({ reason: 'domain_not_allowed' }),
    );
    expect(() => check(http, { url: 'https://api.example.com/' }, { allowedDomains: [] })).toThrow(
      expect.objectContaining({ reason: 'domain_not_allowed' }),
    );
  });

  it('leaves search and mcp egress to their own checks', () => {
    const search = stubTool({ policy: { egress: 'search' } }).tool;

    expect(() => check(search, undefined, {})).not.toThrow();
  });
});

describe('enforcePolicy: the human gate', () => {
  const gated = stubTool({ policy: { requiresGateApproval: true, spawnsProcess: true } }).tool;

  it('refuses without gate approval', () => {
    expect(() => check(gated, undefined, {})).toThrow(
      expect.objectContaining({ reason: 'gate_required' }),
    );
  });

  it('passes with gate approval', () => {
    expect(() => check(gated, undefined, {}, true)).not.toThrow();
  });

  it('checks the gate before the command allowlist', () => {
    const gatedCommand = commandTool({ policy: { requiresGateApproval: true } }).tool;

    expect(() => check(gatedCommand, { command: 'rm' }, {})).toThrow(
      expect.objectContaining({ reason: 'gate_required' }),
    );
  });
});

describe('enforcePolicy: what mcp_call may reach', () => {
  const mcpCall = stubTool({
    id: 'mcp_call',
    policy: { egress: 'mcp' },
    policyTarget: (args) => ({ server: String(args['server']), tool: String(args['tool']) }),
  }).tool;
  const judge =
    (server: string, tool: string, granted: readonly string[], toolPolicy: ToolPolicy = {}) =>
    () =>
      enforcePolicy(
        mcpCall,
        { server, tool },
        {
          toolPolicy,
          gateApproved: false,
          grantedToolIds: new Set(['mcp_call', ...granted]),
        },
      );

  it('reaches a server tool whose discovered tool is granted, and no other', () => {
    expect(judge('two', 'lookup', ['mcp_two_lookup'])).not.toThrow();
    // The case: with only mcp_two_lookup granted, mcp_call must not call `wipe`.
    expect(judge('two', 'wipe', ['mcp_two_lookup'])).toThrow(
      expect.objectContaining({ reason: 'mcp_tool_not_allowed' }),
    );
    expect(judge('one', 'lookup', ['mcp_two_lookup'])).toThrow(ToolPolicyError);
    expect(judge('two', 'lookup', [])).toThrow(ToolPolicyError);
  });

  it('reaches what allowedMcpTools names exactly: server/tool or server/*', () => {
    expect(judge('two', 'wipe', [], { allowedMcpTools: ['two/wipe'] })).not.toThrow();
    expect(judge('two', 'wipe', [], { allowedMcpTools: ['two/*'] })).not.toThrow();
    for (const entry of ['two/wip', 'two/', 'two', '*/wipe', '*', 'tw/*', 'two/wipe/x', '/wipe']) {
      expect(judge('two', 'wipe', [], { allowedMcpTools: [entry] })).toThrow(ToolPolicyError);
    }
    // Names are matched exactly, not through the ids' character replacement.
    expect(judge('a.b', 'x', [], { allowedMcpTools: ['a_b/x'] })).toThrow(ToolPolicyError);
  });

  it('refuses a call that names no server or tool', () => {
    expect(() =>
      enforcePolicy(
        mcpCall,
        {},
        {
          toolPolicy: { allowedMcpTools: ['two/*'] },
          gateApproved: false,
          grantedToolIds: new Set(['mcp_call']),
        },
      ),
    ).toThrow(expect.objectContaining({ reason: 'mcp_tool_not_allowed' }));
  });
});
