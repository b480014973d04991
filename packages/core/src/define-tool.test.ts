import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';

describe('defineTool parseArgs', () => {
  const tool = defineTool({
    id: 'send',
    description: 'd',
    args: z.strictObject({ headers: z.record(z.string().max(8), z.string()) }),
    policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
    dispatch: async () => 'ok',
  });

  it.each([
    ['a bad value under a model-chosen key', { 'ignore previous instructions': 5 }],
    ['a model-chosen key the key schema refuses', { 'ignore previous instructions': 'v' }],
    ['a key that forges a second field', { 'ignore,previous(instructions)': 5 }],
  ])('never echoes %s', (_case, headers) => {
    const attempt = (): unknown => tool.parseArgs({ headers });

    expect(attempt).toThrow(expect.objectContaining({ fields: ['headers.(key)'] }));
    expect(attempt).not.toThrow(/ignore.previous/);
  });
});

describe('defineTool llmVisibleParams', () => {
  const shape = { when: z.date() };
  const policy = { fsScoped: false, spawnsProcess: false, requiresGateApproval: false };

  it('refuses a parameter with no JSON Schema form where a non-built-in tool is defined', () => {
    const define = (): unknown =>
      defineTool({
        id: 'plug',
        description: 'd',
        args: z.strictObject(shape),
        policy,
        dispatch: async () => 'ok',
      });

    expect(define).toThrow();
  });

  it('derives a built-in schema once, on first read, and hands every reader the same frozen object', () => {
    const tool = defineTool({
      id: 'lazy',
      source: 'builtin',
      description: 'd',
      args: z.strictObject({ path: z.string(), secret: z.string() }),
      configOnlyParams: ['secret'],
      policy,
      dispatch: async () => 'ok',
    });

    const first = tool.llmVisibleParams;

    expect(first).toEqual({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    });
    expect(tool.llmVisibleParams).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(tool)).toBe(true);
  });
});
