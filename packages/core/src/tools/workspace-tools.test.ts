import { describe, expect, it } from 'vitest';

import { compareCodeUnits } from '../compare-code-units.js';
import { toProviderTools } from '../lowering/to-provider-tools.js';
import {
  jsonSchemaViolations,
  openAiFunctionViolations,
} from '../lowering/test-support/provider-validators.js';
import { BUILTIN_TOOLS } from './builtin-tools.js';
import { WORKSPACE_TOOLS } from './workspace-tools.js';

describe('WORKSPACE_TOOLS', () => {
  it('holds the four workspace tools, sorted, none of them a built-in (those stay the 13)', () => {
    const ids = WORKSPACE_TOOLS.map((tool) => tool.id);

    expect(ids).toEqual(['create_directory', 'edit_file', 'move_file', 'search_files']);
    expect([...ids].sort(compareCodeUnits)).toEqual(ids);
    expect(BUILTIN_TOOLS).toHaveLength(13);
    expect(ids.filter((id) => BUILTIN_TOOLS.some((tool) => tool.id === id))).toEqual([]);
    expect(Object.isFrozen(WORKSPACE_TOOLS)).toBe(true);
  });

  it.each(WORKSPACE_TOOLS.map((tool) => [tool.id, tool] as const))(
    '%s: a frozen tool, a closed valid schema, a one- or two-sentence description, fs-scoped with a target',
    (_id, tool) => {
      expect(Object.isFrozen(tool)).toBe(true);
      expect(jsonSchemaViolations(tool.llmVisibleParams)).toEqual([]);
      expect(tool.llmVisibleParams['additionalProperties']).toBe(false);
      expect(
        tool.description.split(/[.!?](?:\s|$)/).filter((part) => part.trim() !== '').length,
      ).toBeLessThanOrEqual(2);
      expect(tool.policy.fsScoped).toBe(true);
      expect(tool.policyTarget).toBeTypeOf('function');
    },
  );

  it('lowers strict for OpenAI: every function passes the strict-mode rules', () => {
    const lowered = toProviderTools(WORKSPACE_TOOLS, 'openai-chat');

    for (const entry of lowered) {
      expect(entry.function.strict).toBe(true);
      expect(openAiFunctionViolations(entry.function)).toEqual([]);
    }
  });

  it('governs the three writers as fs_write and leaves the search a read', () => {
    const governed = WORKSPACE_TOOLS.filter((tool) => tool.policy.fsWrite === true).map(
      (tool) => tool.id,
    );

    expect(governed).toEqual(['create_directory', 'edit_file', 'move_file']);
  });
});
