import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ToolArgsInvalidError } from '../errors.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import { fromOpenAiStrictArgs } from './from-openai-strict-args.js';
import { openAiStrictViolations } from './test-support/provider-validators.js';
import { asStrictModelArgs } from './test-support/strict-model-args.js';
import { toOpenAiStrictSchema } from './to-openai-strict-schema.js';
import { toProviderTools } from './to-provider-tools.js';

// One complete, valid argument set per built-in; a model may drop any optional key of it.
const FULL_ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  git_commit: { message: 'm', files: ['a.ts'] },
  git_status: { command: 'log' },
  http_request: { url: 'https://a/', method: 'POST', headers: { a: 'b' }, body: 'x' },
  invoke_agent: { nodeId: 'n', input: 'do it' },
  list_directory: { path: '.', recursive: true, glob: '*.ts' },
  mcp_call: { server: 's', tool: 't', args: { q: 1 } },
  notify: { title: 't', body: 'b' },
  read_clipboard: {},
  read_file: { path: 'a', glob: false, offset: 1, limit: 2 },
  read_media: { handle: `media://sha256-${'d'.repeat(64)}`, start: 0, end: 1 },
  run_command: { command: 'ls', args: ['-l'] },
  web_search: { query: 'q', maxResults: 3 },
  write_file: { path: 'a', content: '', append: true, createDirs: false },
};

// The free-form parts get arbitrary values the tool's own schema accepts, `__proto__` keys too.
const VARIED: Readonly<Record<string, Record<string, fc.Arbitrary<unknown>>>> = {
  http_request: {
    headers: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string(), {
      maxKeys: 6,
      noNullPrototype: true,
    }),
  },
  mcp_call: {
    // What JSON text can carry: fast-check's jsonValue includes -0, which no JSON text holds.
    args: fc.dictionary(
      fc.string({ maxLength: 12 }),
      fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown),
      { maxKeys: 6, noNullPrototype: true },
    ),
  },
};

// Config-only values the registry would merge; the round trip is about the model's part.
const CONFIG: Readonly<Record<string, Record<string, unknown>>> = {
  web_search: { endpoint: 'https://search.example/' },
};

/** Args the tool accepts: the fixture, its free-form parts varied, any optionals left out. */
function intendedArgs(id: string, required: readonly string[]): fc.Arbitrary<object> {
  const full = FULL_ARGS[id]!;
  const optional = Object.keys(full).filter((key) => !required.includes(key));
  return fc
    .record({ omitted: fc.subarray(optional), varied: fc.record(VARIED[id] ?? {}) })
    .map(({ omitted, varied }) =>
      Object.fromEntries(
        Object.entries({ ...full, ...varied }).filter(([key]) => !omitted.includes(key)),
      ),
    );
}

describe('fromOpenAiStrictArgs', () => {
  it('covers every built-in with a fixture', () => {
    expect(Object.keys(FULL_ARGS).sort()).toEqual(BUILTIN_TOOLS.map((tool) => tool.id).sort());
    expect(BUILTIN_TOOLS).toHaveLength(13);
  });

  it.each(BUILTIN_TOOLS.map((tool) => [tool.id, tool] as const))(
    'round-trips %s: what a strict model sends for the lowered schema comes back as the args meant',
    (id, tool) => {
      const [lowered] = toProviderTools([tool], 'openai-responses');
      const strictSchema = z.fromJSONSchema(lowered!.parameters as z.core.JSONSchema.JSONSchema);
      const required = (tool.llmVisibleParams['required'] as string[] | undefined) ?? [];

      expect(lowered!.strict).toBe(true);
      expect(openAiStrictViolations(lowered!.parameters)).toEqual([]);
      fc.assert(
        fc.property(intendedArgs(id, required), (intended) => {
          const fromModel = asStrictModelArgs(lowered!.parameters, intended);

          const restored = fromOpenAiStrictArgs(tool, fromModel) as Record<string, unknown>;

          expect(strictSchema.safeParse(fromModel).success).toBe(true);
          expect(restored).toStrictEqual(intended);
          expect(tool.parseArgs({ ...restored, ...CONFIG[id] })).toEqual(
            tool.parseArgs({ ...intended, ...CONFIG[id] }),
          );
        }),
        { numRuns: 60 },
      );
    },
  );

  it('turns http_request header pairs back into the header map', () => {
    const tool = BUILTIN_TOOLS.find((def) => def.id === 'http_request')!;
    const fromModel = {
      url: 'https://a/',
      method: null,
      headers: [
        { name: 'accept', value: 'text/plain' },
        { name: 'x-b', value: '' },
      ],
      body: null,
    };

    expect(fromOpenAiStrictArgs(tool, fromModel)).toEqual({
      url: 'https://a/',
      headers: { accept: 'text/plain', 'x-b': '' },
    });
  });

  it('turns mcp_call JSON text back into the arguments object', () => {
    const tool = BUILTIN_TOOLS.find((def) => def.id === 'mcp_call')!;

    expect(fromOpenAiStrictArgs(tool, { server: 's', tool: 't', args: '{"q":[1,null]}' })).toEqual({
      server: 's',
      tool: 't',
      args: { q: [1, null] },
    });
  });

  it('refuses a pair list that names a key twice, naming the pair and never a value', () => {
    const tool = BUILTIN_TOOLS.find((def) => def.id === 'http_request')!;
    const fromModel = {
      url: 'https://a/',
      method: null,
      headers: [
        { name: 'authorization', value: 'Bearer one' },
        { name: 'authorization', value: 'Bearer two' },
      ],
      body: null,
    };

    const attempt = () => fromOpenAiStrictArgs(tool, fromModel);

    expect(attempt).toThrow(ToolArgsInvalidError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'tool_args_invalid' }));
    expect(attempt).toThrow('tool http_request args invalid: headers.1 (duplicate_name)');
  });

  it('refuses JSON text that does not parse, without quoting it', () => {
    const tool = BUILTIN_TOOLS.find((def) => def.id === 'mcp_call')!;

    const attempt = () =>
      fromOpenAiStrictArgs(tool, { server: 's', tool: 't', args: '{"token": "sk-secret"' });

    expect(attempt).toThrow('tool mcp_call args invalid: args (not_json_text)');
    expect(attempt).toThrow(
      expect.objectContaining({ issues: [{ field: 'args', problem: 'not_json_text' }] }),
    );
    // The parser's own error quotes the text: it must not ride along as the cause either.
    expect(attempt).toThrow(expect.not.objectContaining({ cause: expect.anything() }));
  });

  it.each([
    ['a pair without a value', [{ name: 'a' }]],
    ['a pair with a non-string name', [{ name: 1, value: 'x' }]],
    ['a pair with an extra key', [{ name: 'a', value: 'x', other: 1 }]],
    ['a bare string in the list', ['a: x']],
  ])('refuses %s as a malformed pair', (_case, headers) => {
    const tool = BUILTIN_TOOLS.find((def) => def.id === 'http_request')!;

    const attempt = () => fromOpenAiStrictArgs(tool, { url: 'https://a/', headers });

    expect(attempt).toThrow('tool http_request args invalid: headers.0 (not_a_name_value_pair)');
  });

  it('keeps a __proto__ pair or JSON key an own key, never the prototype', () => {
    const http = BUILTIN_TOOLS.find((def) => def.id === 'http_request')!;
    const mcp = BUILTIN_TOOLS.find((def) => def.id === 'mcp_call')!;

    const headers = (
      fromOpenAiStrictArgs(http, {
        url: 'https://a/',
        headers: [{ name: '__proto__', value: 'x' }],
      }) as { headers: object }
    ).headers;
    const args = (
      fromOpenAiStrictArgs(mcp, {
        server: 's',
        tool: 't',
        args: '{"__proto__":{"polluted":1}}',
      }) as {
        args: object;
      }
    ).args;

    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect(Object.keys(headers)).toEqual(['__proto__']);
    expect(Object.keys(args)).toEqual(['__proto__']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('tells JSON null apart from an omitted optional', () => {
    const tool = {
      id: 'free',
      llmVisibleParams: z.toJSONSchema(z.strictObject({ v: z.unknown().optional() })),
    };

    expect(fromOpenAiStrictArgs(tool, { v: 'null' })).toEqual({ v: null });
    expect(fromOpenAiStrictArgs(tool, { v: null })).toEqual({});
  });

  it('restores maps of objects, arrays of free-form items and nullable maps alike', () => {
    const schema = z.toJSONSchema(
      z.strictObject({
        byName: z.record(z.string(), z.strictObject({ n: z.number().optional() })),
        items: z.array(z.unknown()),
        env: z.record(z.string(), z.string()).nullable().optional(),
        nested: z.record(z.string(), z.record(z.string(), z.string())),
      }),
      { io: 'input' },
    );
    const tool = { id: 'mixed', llmVisibleParams: schema };
    const intended = {
      byName: { a: { n: 1 }, b: {} },
      items: [{ x: 1 }, 'two', null],
      env: null,
      nested: { outer: { inner: 'v' } },
    };
    const lowered = toOpenAiStrictSchema(schema)!;

    const fromModel = asStrictModelArgs(lowered, intended);

    expect(openAiStrictViolations(lowered)).toEqual([]);
    expect(
      z.fromJSONSchema(lowered as z.core.JSONSchema.JSONSchema).safeParse(fromModel).success,
    ).toBe(true);
    expect(fromOpenAiStrictArgs(tool, fromModel)).toStrictEqual(intended);
  });

  it('follows $ref into $defs to decode what the definition encodes', () => {
    const tool = {
      id: 'refs',
      llmVisibleParams: {
        type: 'object',
        properties: { h: { $ref: '#/$defs/headers' } },
        required: ['h'],
        $defs: { headers: { type: 'object', additionalProperties: { type: 'string' } } },
      },
    };

    expect(fromOpenAiStrictArgs(tool, { h: [{ name: 'a', value: 'b' }] })).toEqual({
      h: { a: 'b' },
    });
  });

  it('keeps a null the original schema allows, and a null on a required key for parseArgs to refuse', () => {
    const tool = {
      id: 'nulls',
      llmVisibleParams: {
        type: 'object',
        properties: {
          a: { type: ['string', 'null'] },
          b: { type: 'string' },
          c: { type: 'string' },
        },
        required: ['b'],
      },
    };

    expect(fromOpenAiStrictArgs(tool, { a: null, b: null, c: null })).toEqual({ a: null, b: null });
  });

  it('removes nulls inside nested objects and arrays of objects', () => {
    const tool = {
      id: 'nested',
      llmVisibleParams: {
        type: 'object',
        properties: {
          list: { type: 'array', items: { type: 'object', properties: { x: { type: 'string' } } } },
          inner: { type: 'object', properties: { y: { type: 'integer' } }, required: [] },
        },
        required: ['list', 'inner'],
      },
    };

    expect(
      fromOpenAiStrictArgs(tool, { list: [{ x: null }, { x: 'k' }], inner: { y: null } }),
    ).toEqual({
      list: [{}, { x: 'k' }],
      inner: {},
    });
  });

  it('leaves keys the schema does not declare for parseArgs to refuse', () => {
    const tool = { id: 'closed', llmVisibleParams: { type: 'object', properties: {} } };

    expect(fromOpenAiStrictArgs(tool, { smuggled: null, other: 1 })).toEqual({
      smuggled: null,
      other: 1,
    });
    expect(fromOpenAiStrictArgs(tool, 'not an object')).toBe('not an object');
  });

  it('never edits the model args it was given', () => {
    const args = Object.freeze({ path: 'a', glob: null, offset: null, limit: null });
    const readFile = BUILTIN_TOOLS.find((tool) => tool.id === 'read_file')!;

    expect(fromOpenAiStrictArgs(readFile, args)).toEqual({ path: 'a' });
    expect(args.glob).toBeNull();
  });
});
