import { describe, expect, it } from 'vitest';
import type { ToolDispatchContext } from '../dispatch-context.js';
import type { FsCapability } from '../fs-capability.js';
import { createToolRegistry } from '../registry.js';
import type { ProcessCapability } from '../tool-host.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import { WORKSPACE_TOOLS } from '../tools/workspace-tools.js';
import { createMemoryEffectJournal } from '../journal/memory-effect-journal.js';
import { AdapterOptionsError } from './adapter-options-error.js';
import { resolveAdapterOptions, type ToolhostAdapterOptions } from './resolve-adapter-options.js';
import { echoTool, saveTool } from './test-support/sample-tools.js';
import { createRecordingRegistry } from './test-support/recording-registry.js';

const registry = createRecordingRegistry([saveTool, echoTool]);
// An fs arm with only the required methods: a read-only host.
const readOnlyFs = {
  readFile: () => Promise.reject(new Error('unused')),
  listDirectory: () => Promise.reject(new Error('unused')),
} as unknown as FsCapability;

describe('resolveAdapterOptions', () => {
  it('grants exactly the listed tools, sorted by id', () => {
    const resolved = resolveAdapterOptions(registry, {
      toolPolicy: {},
      grantedToolIds: ['save', 'echo'],
    });

    expect(resolved.tools.map((tool) => tool.id)).toEqual(['echo', 'save']);
    expect(resolved.contextFor('echo').grantedToolIds).toEqual(new Set(['echo', 'save']));
  });

  it.each([
    ['left out', undefined],
    ['null', null],
    ['one id as a string', 'echo'],
    ['not iterable', { echo: true }],
  ])('refuses a grant that is %s: registering a tool grants nothing', (_case, grantedToolIds) => {
    const options = { toolPolicy: {}, grantedToolIds } as unknown as ToolhostAdapterOptions;

    const attempt = () => resolveAdapterOptions(registry, options);

    expect(attempt).toThrow(AdapterOptionsError);
    expect(attempt).toThrow(
      'toolhost: grantedToolIds is required: list the tools this agent may call (registering a tool grants nothing)',
    );
  });

  it.each([
    ['run_command', {}, 'process'],
    ['http_request', {}, 'egress'],
    ['mcp_call', {}, 'mcp'],
    ['notify', {}, 'os'],
    ['read_media', {}, 'media'],
    ['read_file', {}, 'fs'],
    ['write_file', { fs: readOnlyFs }, 'fs.writeFile'],
    ['edit_file', { fs: readOnlyFs }, 'fs.editFile'],
  ] as const)(
    'refuses a grant of %s on a host without its arm, naming the arm',
    (id, host, arm) => {
      const builtins = createToolRegistry({ tools: [...BUILTIN_TOOLS, ...WORKSPACE_TOOLS], host });

      const attempt = () =>
        resolveAdapterOptions(builtins, { toolPolicy: {}, grantedToolIds: [id] });

      expect(attempt).toThrow(
        expect.objectContaining({ reason: 'host_arm_missing', toolId: id, arm }),
      );
      expect(attempt).toThrow(`(${id} needs ${arm})`);
    },
  );

  it('accepts a grant whose arms the host has, and tools that need none', () => {
    const host = { fs: readOnlyFs, process: {} as ProcessCapability };
    const builtins = createToolRegistry({ tools: BUILTIN_TOOLS, host });

    const resolved = resolveAdapterOptions(builtins, {
      toolPolicy: {},
      grantedToolIds: ['read_file', 'list_directory', 'run_command', 'invoke_agent'],
    });

    expect(resolved.tools).toHaveLength(4);
  });

  it('grants nothing for an empty list', () => {
    const resolved = resolveAdapterOptions(registry, { toolPolicy: {}, grantedToolIds: [] });

    expect(resolved.tools).toEqual([]);
    expect(resolved.contextFor('echo').grantedToolIds).toEqual(new Set());
  });

  it('puts the runner hostCallOptions and beforeDispatch on every context', () => {
    const hostCallOptions = { retainWork: <T>(factory: () => Promise<T>) => factory() };
    const beforeDispatch: ToolDispatchContext['beforeDispatch'] = () => {};
    const resolved = resolveAdapterOptions(registry, {
      toolPolicy: {},
      grantedToolIds: ['echo', 'save'],
      hostCallOptions,
      beforeDispatch,
    });

    const contexts = [resolved.contextFor('echo'), resolved.contextFor('save')];

    expect(contexts.map((ctx) => ctx.hostCallOptions)).toEqual([hostCallOptions, hostCallOptions]);
    expect(contexts.map((ctx) => ctx.beforeDispatch)).toEqual([beforeDispatch, beforeDispatch]);
  });

  it('puts the journal on every context', () => {
    const journal = { store: createMemoryEffectJournal(), runId: 'run-1' };
    const resolved = resolveAdapterOptions(registry, {
      toolPolicy: {},
      grantedToolIds: ['echo', 'save'],
      journal,
    });

    expect([resolved.contextFor('echo').journal, resolved.contextFor('save').journal]).toEqual([
      journal,
      journal,
    ]);
  });

  const store = createMemoryEffectJournal();
  it.each<[string, unknown]>([
    ['null', null],
    ['without a store', { runId: 'run-1' }],
    ['with a store missing discard', { runId: 'run-1', store: { ...store, discard: undefined } }],
    ['with an empty run id', { store, runId: '' }],
    ['with a zero record cap', { store, runId: 'run-1', maxRecordBytes: 0 }],
    ['with a fractional record cap', { store, runId: 'run-1', maxRecordBytes: 1.5 }],
  ])('refuses a journal %s at creation', (_case, journal) => {
    const options = { toolPolicy: {}, grantedToolIds: ['echo'], journal };

    const attempt = () => resolveAdapterOptions(registry, options as ToolhostAdapterOptions);

    expect(attempt).toThrow(AdapterOptionsError);
    expect(attempt).toThrow(/^toolhost: journal needs a store/);
  });

  it('shows the model only the granted tools', () => {
    const resolved = resolveAdapterOptions(registry, { toolPolicy: {}, grantedToolIds: ['echo'] });

    expect(resolved.tools.map((tool) => tool.id)).toEqual(['echo']);
  });

  it('puts a tool config only on that tool’s context', () => {
    const resolved = resolveAdapterOptions(registry, {
      toolPolicy: {},
      grantedToolIds: ['echo', 'save'],
      toolConfig: { echo: { prefix: '> ' } },
    });

    expect(resolved.contextFor('echo').config).toEqual({ parameters: { prefix: '> ' } });
    expect(resolved.contextFor('save').config).toEqual({});
    expect(resolved.contextFor('__proto__').config).toEqual({});
  });

  it('fills the agent defaults', () => {
    const ctx = resolveAdapterOptions(registry, {
      toolPolicy: { allowedDomains: ['a.example'] },
      grantedToolIds: ['echo'],
    }).contextFor('echo');

    expect(ctx).toMatchObject({
      nodeId: 'agent',
      fsScope: 'sandboxed',
      gateApproved: false,
      toolPolicy: { allowedDomains: ['a.example'] },
    });
    expect(ctx.approval).toBeUndefined();
    expect(ctx.hostCallOptions).toBeUndefined();
    expect(ctx.beforeDispatch).toBeUndefined();
  });

  it('lets a call override the approval context and pass its signal', () => {
    const signal = new AbortController().signal;
    const approval = { confirm: async () => ({ outcome: 'approve' as const }) };
    const resolved = resolveAdapterOptions(registry, {
      toolPolicy: {},
      grantedToolIds: ['save'],
      approval: {},
    });

    const ctx = resolved.contextFor('save', { signal, approval });

    expect(ctx.approval).toBe(approval);
    expect(ctx.signal).toBe(signal);
  });

  it.each([
    ['an unregistered grant', 'grant_not_registered', { grantedToolIds: ['nope'] }],
    [
      'config for an ungranted tool',
      'config_not_granted',
      { grantedToolIds: ['echo'], toolConfig: { save: {} } },
    ],
    [
      'a negative correction budget',
      'max_corrections_invalid',
      { grantedToolIds: ['echo'], maxCorrections: -1 },
    ],
  ])('rejects %s at creation', (_case, reason, options) => {
    const attempt = () => resolveAdapterOptions(registry, { toolPolicy: {}, ...options });

    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'adapter_options_invalid', reason }));
  });
});
