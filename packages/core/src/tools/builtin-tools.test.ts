import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../errors.js';
import { isSchemaNode } from '../lowering/schema-node.js';
import { jsonSchemaViolations } from '../lowering/test-support/provider-validators.js';
import { BUILTIN_TOOLS } from './builtin-tools.js';

const CATALOG = [
  'git_commit',
  'git_status',
  'http_request',
  'invoke_agent',
  'list_directory',
  'mcp_call',
  'notify',
  'read_clipboard',
  'read_file',
  'read_media',
  'run_command',
  'web_search',
  'write_file',
];

describe('BUILTIN_TOOLS', () => {
  it('holds the 13 catalog ids, unique and sorted by code unit', () => {
    const ids = BUILTIN_TOOLS.map((tool) => tool.id);

    expect(ids).toEqual(CATALOG);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort(compareCodeUnits)).toEqual(ids);
  });

  it.each(BUILTIN_TOOLS.map((tool) => [tool.id, tool] as const))(
    '%s is a frozen built-in with a one- or two-sentence description',
    (_id, tool) => {
      expect(tool.source).toBe('builtin');
      expect(Object.isFrozen(tool)).toBe(true);
      expect(tool.description.length).toBeGreaterThan(20);
      expect(
        tool.description.split(/[.!?](?:\s|$)/).filter((part) => part.trim() !== '').length,
      ).toBeLessThanOrEqual(2);
    },
  );

  it.each(BUILTIN_TOOLS.map((tool) => [tool.id, tool] as const))(
    '%s has a valid object schema closed with additionalProperties false',
    (_id, tool) => {
      expect(jsonSchemaViolations(tool.llmVisibleParams)).toEqual([]);
      expect(tool.llmVisibleParams['type']).toBe('object');
      expect(tool.llmVisibleParams['additionalProperties']).toBe(false);
      expect(tool.llmVisibleParams).not.toHaveProperty('$schema');
    },
  );

  it.each(BUILTIN_TOOLS.map((tool) => [tool.id, tool] as const))(
    '%s leaks no config-only key into its model-visible schema',
    (_id, tool) => {
      const text = JSON.stringify(tool.llmVisibleParams);
      const properties = tool.llmVisibleParams['properties'];

      for (const key of tool.configOnlyParams ?? []) {
        expect(isSchemaNode(properties) && Object.hasOwn(properties, key)).toBe(false);
        expect(text).not.toContain(`"${key}"`);
      }
    },
  );

  it('needs a policy target on every tool whose allowlist is model-steered', () => {
    const steered = BUILTIN_TOOLS.filter(
      (tool) => tool.policy.egress === 'http' || tool.policy.fsScoped || tool.id === 'run_command',
    );

    expect(steered.map((tool) => tool.id)).toEqual([
      'http_request',
      'list_directory',
      'read_file',
      'run_command',
      'write_file',
    ]);
    for (const tool of steered) expect(tool.policyTarget).toBeTypeOf('function');
  });

  it('lists as spawnsProcess without a target only the two fixed git tools', () => {
    const untargeted = BUILTIN_TOOLS.filter(
      (tool) => tool.policy.spawnsProcess && tool.policyTarget === undefined,
    );

    expect(untargeted.map((tool) => tool.id)).toEqual(['git_commit', 'git_status']);
  });
});
