import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyToolDef } from '../tool-def.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import { fromOpenAiStrictArgs } from './from-openai-strict-args.js';
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

// Config-only values the registry would merge; the round trip is about the model's part.
const CONFIG: Readonly<Record<string, Record<string, unknown>>> = {
  web_search: { endpoint: 'https://search.example/' },
};

const strictTools = toProviderTools(BUILTIN_TOOLS, 'openai-responses').filter(
  (tool) => tool.strict,
);

/** What a strict-mode model sends: every key present, `null` for each omitted optional. */
function asStrictModelArgs(
  tool: AnyToolDef,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const keys = Object.keys(tool.llmVisibleParams['properties'] as object);
  return Object.fromEntries(keys.map((key) => [key, Object.hasOwn(args, key) ? args[key] : null]));
}

describe('fromOpenAiStrictArgs', () => {
  it.each(
    strictTools.map(
      (lowered) => [lowered.name, BUILTIN_TOOLS.find((tool) => tool.id === lowered.name)!] as const,
    ),
  )('round-trips %s args a strict model produces, whichever optionals it omits', (id, tool) => {
    const full = FULL_ARGS[id]!;
    const optional = Object.keys(full).filter(
      (key) => !(tool.llmVisibleParams['required'] as string[] | undefined)?.includes(key),
    );
    fc.assert(
      fc.property(fc.subarray(optional), (omitted) => {
        const intended = Object.fromEntries(
          Object.entries(full).filter(([key]) => !omitted.includes(key)),
        );
        const fromModel = asStrictModelArgs(tool, intended);

        const restored = fromOpenAiStrictArgs(tool, fromModel) as Record<string, unknown>;

        expect(restored).toEqual(intended);
        expect(tool.parseArgs({ ...restored, ...CONFIG[id] })).toEqual(
          tool.parseArgs({ ...intended, ...CONFIG[id] }),
        );
      }),
      { numRuns: 40 },
    );
  });

  it('covers every strict built-in with a fixture', () => {
    for (const tool of strictTools) expect(FULL_ARGS).toHaveProperty(tool.name);
    expect(strictTools.length).toBe(11);
  });

  it('keeps a null the original schema allows, and a null on a required key for parseArgs to refuse', () => {
    const tool = {
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
    const tool = { llmVisibleParams: { type: 'object', properties: {} } };

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
