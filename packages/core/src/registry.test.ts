import { describe, expect, it } from 'vitest';
import { createToolRegistry } from './registry.js';
import { UnknownToolError } from './errors.js';
import { httpTool, stubContext, stubTool } from './dispatch/test-support/stub-tools.js';
import { gitCommitTool } from './tools/git-commit.js';
import { gitStatusTool } from './tools/git-status.js';

describe('createToolRegistry', () => {
  it('lists ids in code-unit order, independent of locale', () => {
    const tools = ['b', 'a', 'B', 'é', 'Z'].map((id) => stubTool({ id }).tool);

    const registry = createToolRegistry({ tools, host: {} });

    expect(registry.list()).toEqual(['B', 'Z', 'a', 'b', 'é']);
  });

  it('refuses two tools with one id at construction', () => {
    const attempt = (): unknown =>
      createToolRegistry({ tools: [stubTool().tool, stubTool().tool], host: {} });

    expect(attempt).toThrow(/duplicate tool id stub/);
  });

  it('refuses a missing host at construction, not at the first dispatch', () => {
    const options = { tools: [stubTool().tool] } as unknown as Parameters<
      typeof createToolRegistry
    >[0];

    expect(() => createToolRegistry(options)).toThrow(/needs a host/);
  });

  it('refuses an http tool without a policy target at construction', () => {
    const tool = stubTool({ id: 'fetchy', policy: { egress: 'http' } }).tool;

    expect(() => createToolRegistry({ tools: [tool], host: {} })).toThrow(
      /http tool fetchy must declare a policyTarget/,
    );
  });

  it('accepts the built-in git tools without a target (a fixed git subcommand)', () => {
    const registry = createToolRegistry({ tools: [gitStatusTool, gitCommitTool], host: {} });

    expect(registry.list()).toEqual(['git_commit', 'git_status']);
  });

  it.each([
    ['a plugin', stubTool({ id: 'spawner', pinned: false, policy: { spawnsProcess: true } }).tool],
    [
      'a tool that merely claims to be built in',
      stubTool({ id: 'spawner', source: 'builtin', pinned: false, policy: { spawnsProcess: true } })
        .tool,
    ],
    ['a copy of git_status under another id', { ...gitStatusTool, id: 'spawner' }],
  ])('refuses %s spawning without a target: its allowlist would be skipped', (_case, tool) => {
    expect(() => createToolRegistry({ tools: [tool], host: {} })).toThrow(
      /process tool spawner must declare a policyTarget/,
    );
  });

  it('gets by exact own id only', () => {
    const registry = createToolRegistry({ tools: [httpTool().tool], host: {} });

    expect(registry.get('http')?.id).toBe('http');
    expect(registry.get('HTTP')).toBeUndefined();
    expect(registry.get('constructor')).toBeUndefined();
    expect(registry.get('__proto__')).toBeUndefined();
  });

  it('names only the granted tools when a call names an unknown one', async () => {
    const tools = ['read_file', 'run_command', 'write_file'].map((id) => stubTool({ id }).tool);
    const registry = createToolRegistry({ tools, host: {} });

    const attempt = registry.dispatch(
      { id: 'c', name: 'read_files', args: {} },
      stubContext(['write_file', 'read_file']),
    );

    await expect(attempt).rejects.toThrow(UnknownToolError);
    await expect(attempt).rejects.toMatchObject({
      availableIds: ['read_file', 'write_file'],
      message: 'unknown tool "read_files"; available tools: read_file, write_file',
    });
  });

  it('exposes preflight, refusing what dispatch refuses', () => {
    const registry = createToolRegistry({ tools: [stubTool().tool], host: {} });

    const attempt = (): unknown =>
      registry.preflight({ id: 'c', name: 'stub', args: {} }, stubContext([]));

    expect(attempt).toThrow(expect.objectContaining({ reason: 'not_granted' }));
  });

  it('refuses an empty id', () => {
    expect(() => createToolRegistry({ tools: [stubTool({ id: '' }).tool], host: {} })).toThrow(
      TypeError,
    );
  });
});
