import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import {
  anthropicViolations,
  geminiViolations,
  jsonSchemaViolations,
  openAiFunctionViolations,
} from './test-support/provider-validators.js';
import { toProviderTools } from './to-provider-tools.js';

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

  it('makes every tool strict except those with an open map argument', () => {
    const strictness = Object.fromEntries(
      toProviderTools(BUILTIN_TOOLS, 'openai-responses').map((tool) => [tool.name, tool.strict]),
    );

    expect(
      Object.entries(strictness)
        .filter(([, strict]) => !strict)
        .map(([name]) => name),
    ).toEqual(['http_request', 'mcp_call']);
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
        properties: {
          propertyNames: { type: 'string' },
          m: { type: 'object', additionalProperties: {} },
        },
      },
    };

    const [lowered] = toProviderTools([tool], 'openai-chat');

    expect(lowered?.function.parameters['properties']).toHaveProperty('propertyNames');
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
