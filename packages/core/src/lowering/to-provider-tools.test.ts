import { describe, expect, expectTypeOf, it } from 'vitest';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import {
  anthropicViolations,
  geminiViolations,
  jsonSchemaViolations,
  openAiFunctionViolations,
} from './test-support/provider-validators.js';
import {
  TOOL_PROVIDERS,
  toProviderTools,
  type AiSdkToolSpec,
  type GeminiTool,
  type OpenAiChatTool,
  type ToolProvider,
} from './to-provider-tools.js';
import { UnknownProviderError } from './unknown-provider-error.js';

const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ai-sdk'] as const;
const WITH_CONFIG_ONLY = BUILTIN_TOOLS.filter((tool) => (tool.configOnlyParams ?? []).length > 0);

describe('toProviderTools', () => {
  it('lowers every built-in to OpenAI Chat function tools OpenAI accepts', () => {
    const tools = toProviderTools(BUILTIN_TOOLS, 'openai-chat');

    expect(tools.map((tool) => tool.function.name)).toEqual(BUILTIN_TOOLS.map((tool) => tool.id));
    for (const tool of tools) {
      expect(tool.type).toBe('function');
      expect(openAiFunctionViolations(tool.function)).toEqual([]);
    }
  });

  it('lowers every built-in to OpenAI Responses function tools OpenAI accepts', () => {
    const tools = toProviderTools(BUILTIN_TOOLS, 'openai-responses');

    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual([
        'description',
        'name',
        'parameters',
        'strict',
        'type',
      ]);
      expect(openAiFunctionViolations(tool)).toEqual([]);
    }
  });

  it.each(['openai-chat', 'openai-responses'] as const)(
    'makes all 13 built-ins strict for %s',
    (provider) => {
      const tools = toProviderTools(BUILTIN_TOOLS, provider);

      const strictness = tools.map((tool) => ('function' in tool ? tool.function : tool).strict);

      expect(strictness).toEqual(BUILTIN_TOOLS.map(() => true));
    },
  );

  it('lowers a tool whose root is an open map with strict: false, as a hint', () => {
    const tool = {
      id: 'open_root',
      description: 'd',
      llmVisibleParams: { type: 'object', additionalProperties: { type: 'string' } },
    };

    const [lowered] = toProviderTools([tool], 'openai-responses');

    expect(lowered?.strict).toBe(false);
    expect(openAiFunctionViolations(lowered!)).toEqual([]);
  });

  it('sends the open-map tools to OpenAI without propertyNames', () => {
    const text = JSON.stringify(toProviderTools(BUILTIN_TOOLS, 'openai-chat'));

    expect(text).not.toContain('propertyNames');
  });

  it('keeps an argument that happens to be named propertyNames', () => {
    const tool = {
      id: 'odd',
      description: 'd',
      llmVisibleParams: {
        type: 'object',
        properties: { propertyNames: { type: 'string' } },
        // An open root keeps the tool off the strict path, where propertyNames is stripped.
        additionalProperties: { type: 'string' },
        propertyNames: { maxLength: 9 },
      },
    };

    const [lowered] = toProviderTools([tool], 'openai-chat');

    expect(lowered?.function.strict).toBe(false);
    expect(lowered?.function.parameters['properties']).toHaveProperty('propertyNames');
    expect(lowered?.function.parameters).not.toHaveProperty('propertyNames');
  });

  it('lowers every built-in to Anthropic tools with an object input_schema', () => {
    const tools = toProviderTools(BUILTIN_TOOLS, 'anthropic');

    for (const tool of tools) expect(anthropicViolations({ ...tool })).toEqual([]);
  });

  it('lowers every built-in to one Gemini Tool in the OpenAPI subset', () => {
    const tool = toProviderTools(BUILTIN_TOOLS, 'gemini');

    expect(tool.functionDeclarations).toHaveLength(13);
    expect(geminiViolations({ ...tool })).toEqual([]);
  });

  it('leaves parameters unset for a Gemini function without arguments', () => {
    const tool = toProviderTools(BUILTIN_TOOLS, 'gemini');

    const clipboard = tool.functionDeclarations.find(
      (declaration) => declaration.name === 'read_clipboard',
    );

    expect(clipboard).not.toHaveProperty('parameters');
  });

  it('lowers every built-in to an AI SDK tool set of plain JSON Schemas', () => {
    const tools = toProviderTools(BUILTIN_TOOLS, 'ai-sdk');

    expect(Object.keys(tools)).toEqual(BUILTIN_TOOLS.map((tool) => tool.id));
    for (const spec of Object.values(tools)) {
      expect(spec.inputSchema['type']).toBe('object');
      expect(spec.inputSchema).not.toHaveProperty('$schema');
      expect(jsonSchemaViolations(spec.inputSchema)).toEqual([]);
    }
  });

  it.each(
    PROVIDERS.flatMap((provider) =>
      WITH_CONFIG_ONLY.map((tool) => [tool.id, provider, tool] as const),
    ),
  )('never lets a config-only key of %s reach %s', (_id, provider, tool) => {
    const text = JSON.stringify(toProviderTools([tool], provider));

    for (const key of tool.configOnlyParams ?? []) expect(text).not.toContain(`"${key}"`);
  });

  it('hands out a fresh mutable copy each time, leaving the frozen defs intact', () => {
    const first = toProviderTools(BUILTIN_TOOLS, 'anthropic');
    first[0]!.input_schema['properties'] = {};

    const second = toProviderTools(BUILTIN_TOOLS, 'anthropic');

    expect(second[0]!.input_schema['properties']).not.toEqual({});
  });

  it.each(['openai', '', 'constructor', 'OpenAI-Chat', undefined])(
    'refuses the unknown provider %j, naming the valid ones',
    (provider) => {
      const attempt = () => toProviderTools(BUILTIN_TOOLS, provider as ToolProvider);

      expect(attempt).toThrow(UnknownProviderError);
      expect(attempt).toThrow(
        expect.objectContaining({
          code: 'unknown_provider',
          provider,
          validProviders: [...TOOL_PROVIDERS],
        }),
      );
      for (const valid of TOOL_PROVIDERS) expect(attempt).toThrow(valid);
    },
  );

  it('refuses an unknown provider even with no tools to lower', () => {
    expect(() => toProviderTools([], 'openai' as ToolProvider)).toThrow(UnknownProviderError);
  });

  it('types each known provider to its own wire shape', () => {
    expectTypeOf(toProviderTools([], 'gemini')).toEqualTypeOf<GeminiTool>();
    expectTypeOf(toProviderTools([], 'openai-chat')).toEqualTypeOf<OpenAiChatTool[]>();
    expectTypeOf(toProviderTools([], 'ai-sdk')).toEqualTypeOf<Record<string, AiSdkToolSpec>>();
    expect(TOOL_PROVIDERS).toEqual(PROVIDERS);
  });

  it('drops zod safe-integer bounds that only cost tokens', () => {
    const text = JSON.stringify(toProviderTools(BUILTIN_TOOLS, 'anthropic'));

    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });
});

describe('the provider validators', () => {
  it.each([
    [
      'a record in strict mode',
      {
        type: 'object',
        properties: { h: { type: 'object', additionalProperties: { type: 'string' } } },
        required: ['h'],
        additionalProperties: false,
      },
    ],
    [
      'an optional key in strict mode',
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    ],
    ['an open root object in strict mode', { type: 'object', properties: {}, required: [] }],
    [
      'minLength in strict mode',
      {
        type: 'object',
        properties: { a: { type: 'string', minLength: 1 } },
        required: ['a'],
        additionalProperties: false,
      },
    ],
    [
      'default in strict mode',
      {
        type: 'object',
        properties: { a: { type: 'string', default: 'x' } },
        required: ['a'],
        additionalProperties: false,
      },
    ],
    [
      'an untyped property in strict mode',
      { type: 'object', properties: { a: {} }, required: ['a'], additionalProperties: false },
    ],
    [
      'a nullable enum without null',
      {
        type: 'object',
        properties: { a: { type: ['string', 'null'], enum: ['x'] } },
        required: ['a'],
        additionalProperties: false,
      },
    ],
    ['an anyOf root', { anyOf: [{ type: 'object' }] }],
  ])('flags %s for OpenAI', (_case, parameters) => {
    expect(openAiFunctionViolations({ name: 'ok', parameters, strict: true })).not.toEqual([]);
  });

  it('flags an OpenAI name with a dot', () => {
    expect(openAiFunctionViolations({ name: 'a.b', parameters: { type: 'object' } })).not.toEqual(
      [],
    );
  });

  it.each([
    ['a non-object input schema', { name: 'ok', input_schema: { type: 'string' } }],
    ['a name with a space', { name: 'a b', input_schema: { type: 'object' } }],
    [
      'a required key that is not declared',
      { name: 'ok', input_schema: { type: 'object', required: ['x'] } },
    ],
    ['a misspelled field', { name: 'ok', inputSchema: {}, input_schema: { type: 'object' } }],
  ])('flags %s for Anthropic', (_case, tool) => {
    expect(anthropicViolations(tool)).not.toEqual([]);
  });

  it.each([
    [
      'additionalProperties',
      { type: 'OBJECT', properties: { a: { type: 'STRING' } }, additionalProperties: false },
    ],
    ['$schema', { $schema: 'x', type: 'OBJECT', properties: { a: { type: 'STRING' } } }],
    [
      'exclusiveMinimum',
      { type: 'OBJECT', properties: { a: { type: 'INTEGER', exclusiveMinimum: 0 } } },
    ],
    [
      'a lower-case type union',
      { type: 'OBJECT', properties: { a: { type: ['string', 'null'] } } },
    ],
    ['empty OBJECT properties', { type: 'OBJECT', properties: {} }],
    ['a uri format', { type: 'OBJECT', properties: { a: { type: 'STRING', format: 'uri' } } }],
    ['a numeric enum', { type: 'OBJECT', properties: { a: { type: 'INTEGER', enum: [1] } } }],
    ['minLength', { type: 'OBJECT', properties: { a: { type: 'STRING', minLength: 1 } } }],
  ])('flags %s for Gemini', (_case, parameters) => {
    expect(
      geminiViolations({ functionDeclarations: [{ name: 'ok', description: 'd', parameters }] }),
    ).not.toEqual([]);
  });
});
