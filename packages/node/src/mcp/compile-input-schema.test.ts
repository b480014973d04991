import { ToolArgsInvalidError, type AnyToolDef } from '@toolhost/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileInputSchema } from './compile-input-schema.js';
import { createMcpArm, type McpArm } from './create-mcp-arm.js';
import { fixtureServerDeclaration } from './test-support/fixture-server-declaration.js';

// 25 `a`s and a `!`: ~4 s of backtracking for `^(a+)+$` on V8's engine, microseconds on RE2.
const HOSTILE = `${'a'.repeat(25)}!`;

const issuesOf = (attempt: () => unknown): unknown => {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolArgsInvalidError);
    return (error as ToolArgsInvalidError).issues;
  }
  throw new Error('accepted');
};

describe('compileInputSchema against a hostile MCP server', () => {
  let arm: McpArm;
  beforeAll(async () => {
    arm = await createMcpArm({
      servers: {
        fx: fixtureServerDeclaration({ tools: ['hostile_pattern', 'backref_pattern'] }),
      },
    });
  });
  afterAll(() => arm.close());

  const hostile = (): AnyToolDef => {
    const found = arm.tools.find((tool) => tool.id === 'mcp_fx_hostile_pattern');
    if (found === undefined) throw new Error('missing mcp_fx_hostile_pattern');
    return found;
  };

  it('refuses an argument that would backtrack exponentially, without stalling', () => {
    const started = performance.now();

    const issues = issuesOf(() => hostile().parseArgs({ text: HOSTILE }));

    expect(performance.now() - started).toBeLessThan(500);
    expect(issues).toEqual([{ field: 'text', problem: 'invalid_format' }]);
  });

  it('compiles patternProperties keys on the same engine', () => {
    const args = { [`${'b'.repeat(25)}!`]: 'not an integer', bbb: 1 };

    expect(hostile().parseArgs(args)).toEqual(args);
  });

  it('still enforces the patterns: a matching argument passes, a matching key is typed', () => {
    expect(hostile().parseArgs({ text: 'aaaa', bbb: 3 })).toEqual({ text: 'aaaa', bbb: 3 });
    expect(issuesOf(() => hostile().parseArgs({ bbb: 'three' }))).toEqual([
      { field: 'bbb', problem: 'invalid_type' },
    ]);
  });

  it('drops a tool whose pattern a linear-time engine cannot run', () => {
    expect(arm.tools.map((tool) => tool.id)).toEqual(['mcp_fx_hostile_pattern']);
    expect(arm.report.skipped).toContainEqual({
      server: 'fx',
      tool: 'backref_pattern',
      id: 'mcp_fx_backref_pattern',
      reason: 'invalid_schema',
    });
  });
});

describe('compileInputSchema patterns', () => {
  const validate = (pattern: string) =>
    compileInputSchema('mcp_x_t', {
      type: 'object',
      properties: { value: { type: 'string', pattern } },
    });

  it.each([
    ['a digit class', '^\\d{3}$', '123', '12a'],
    ['a search, not a whole match', 'b', 'abc', 'xyz'],
    ['a named group', '^(?<year>\\d{4})-\\d{2}$', '2026-12', '2026'],
    ['a \\u escape', '^caf\\u00e9$', 'café', 'cafe'],
    ['a unicode property', '^\\p{L}+$', 'héllo', 'h3llo'],
    ['an escaped slash', '^a/b$', 'a/b', 'a\\b'],
  ])('keeps the JSON Schema meaning of %s', (_case, pattern, matching, other) => {
    expect(validate(pattern)({ value: matching })).toEqual({ value: matching });
    expect(issuesOf(() => validate(pattern)({ value: other }))).toEqual([
      { field: 'value', problem: 'invalid_format' },
    ]);
  });

  it.each([
    ['a backreference', '^(a)\\1$'],
    ['a lookahead', '^a(?=b)'],
    ['a negative lookahead', '^(?!admin)'],
  ])('refuses to compile %s', (_case, pattern) => {
    expect(() => validate(pattern)).toThrow();
  });
});
