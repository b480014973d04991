import { describe, expect, it } from 'vitest';
import { createToolRegistry } from './registry.js';
import { httpTool, stubTool } from './dispatch/test-support/stub-tools.js';

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

  it('refuses an http tool without a policy target at construction', () => {
    const tool = stubTool({ id: 'fetchy', policy: { egress: 'http' } }).tool;

    expect(() => createToolRegistry({ tools: [tool], host: {} })).toThrow(
      /http tool fetchy must declare a policyTarget/,
    );
  });

  it('accepts a built-in process tool without a target (a fixed git subcommand)', () => {
    const tool = stubTool({ id: 'git_status', policy: { spawnsProcess: true } }).tool;

    const registry = createToolRegistry({ tools: [tool], host: {} });

    expect(registry.list()).toEqual(['git_status']);
  });

  it.each(['plugin', 'mcp'] as const)(
    'refuses a %s process tool without a target: its allowlist would be skipped',
    (source) => {
      const tool = stubTool({ id: 'spawner', source, policy: { spawnsProcess: true } }).tool;

      expect(() => createToolRegistry({ tools: [tool], host: {} })).toThrow(
        /process tool spawner must declare a policyTarget/,
      );
    },
  );

  it('gets by exact own id only', () => {
    const registry = createToolRegistry({ tools: [httpTool().tool], host: {} });

    expect(registry.get('http')?.id).toBe('http');
    expect(registry.get('HTTP')).toBeUndefined();
    expect(registry.get('constructor')).toBeUndefined();
    expect(registry.get('__proto__')).toBeUndefined();
  });

  it('refuses an empty id', () => {
    expect(() => createToolRegistry({ tools: [stubTool({ id: '' }).tool], host: {} })).toThrow(
      TypeError,
    );
  });
});
