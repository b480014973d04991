import { describe, expect, it } from 'vitest';
import type { AnyToolDef } from '../tool-def.js';
import { stubTool } from './test-support/stub-tools.js';
import { toolParamKeys } from './tool-param-keys.js';

// A hand-written def: no zod schema recorded, so its JSON Schema is what names its keys.
function handWritten(llmVisibleParams: AnyToolDef['llmVisibleParams']): AnyToolDef {
  return { ...stubTool().tool, llmVisibleParams, configOnlyParams: ['pinned'] };
}

describe('toolParamKeys', () => {
  it('reads a defineTool tool from its zod schema, config-only keys included', () => {
    const { tool } = stubTool({ configOnlyParams: ['cwd'] });

    // `cwd` is config-only, so absent from `llmVisibleParams`, yet still a parameter.
    expect(toolParamKeys(tool)?.has('cwd')).toBe(true);
    expect(toolParamKeys(tool)?.has('nested')).toBe(true);
  });

  it('reads a hand-written def from its JSON Schema properties plus config-only keys', () => {
    const def = handWritten({ type: 'object', properties: { a: {}, b: {} } });

    expect([...(toolParamKeys(def) ?? [])].sort()).toEqual(['a', 'b', 'pinned']);
  });

  it.each([
    ['no properties', { type: 'object' }],
    ['a non-object schema', { type: 'string', properties: { a: {} } }],
    ['properties that are not an object', { type: 'object', properties: ['a'] }],
  ])('knows no keys of a JSON Schema with %s', (_label, schema) => {
    expect(toolParamKeys(handWritten(schema))).toBeUndefined();
  });

  it('knows no keys when the JSON Schema cannot be derived', () => {
    const def = Object.defineProperty({ ...stubTool().tool }, 'llmVisibleParams', {
      get: () => {
        throw new Error('unrepresentable');
      },
    });

    expect(toolParamKeys(def)).toBeUndefined();
  });
});
