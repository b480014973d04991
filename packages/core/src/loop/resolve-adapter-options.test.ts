import { describe, expect, it } from 'vitest';
import { resolveAdapterOptions } from './resolve-adapter-options.js';
import { echoTool, saveTool } from './test-support/sample-tools.js';
import { createRecordingRegistry } from './test-support/recording-registry.js';

const registry = createRecordingRegistry([saveTool, echoTool]);

describe('resolveAdapterOptions', () => {
  it('grants every registered tool by default, sorted by id', () => {
    const resolved = resolveAdapterOptions(registry, { toolPolicy: {} });

    expect(resolved.tools.map((tool) => tool.id)).toEqual(['echo', 'save']);
    expect(resolved.contextFor('echo').grantedToolIds).toEqual(new Set(['echo', 'save']));
  });

  it('shows the model only the granted tools', () => {
    const resolved = resolveAdapterOptions(registry, { toolPolicy: {}, grantedToolIds: ['echo'] });

    expect(resolved.tools.map((tool) => tool.id)).toEqual(['echo']);
  });

  it('puts a tool config only on that tool’s context', () => {
    const resolved = resolveAdapterOptions(registry, {
      toolPolicy: {},
      toolConfig: { echo: { prefix: '> ' } },
    });

    expect(resolved.contextFor('echo').config).toEqual({ parameters: { prefix: '> ' } });
    expect(resolved.contextFor('save').config).toEqual({});
    expect(resolved.contextFor('__proto__').config).toEqual({});
  });

  it('fills the agent defaults', () => {
    const ctx = resolveAdapterOptions(registry, {
      toolPolicy: { allowedDomains: ['a.example'] },
    }).contextFor('echo');

    expect(ctx).toMatchObject({
      nodeId: 'agent',
      fsScope: 'sandboxed',
      gateApproved: false,
      toolPolicy: { allowedDomains: ['a.example'] },
    });
    expect(ctx.approval).toBeUndefined();
  });

  it('lets a call override the approval context and pass its signal', () => {
    const signal = new AbortController().signal;
    const approval = { confirm: async () => ({ outcome: 'approve' as const }) };
    const resolved = resolveAdapterOptions(registry, { toolPolicy: {}, approval: {} });

    const ctx = resolved.contextFor('save', { signal, approval });

    expect(ctx.approval).toBe(approval);
    expect(ctx.signal).toBe(signal);
  });

  it.each([
    ['an unregistered grant', { toolPolicy: {}, grantedToolIds: ['nope'] }],
    [
      'config for an ungranted tool',
      { toolPolicy: {}, grantedToolIds: ['echo'], toolConfig: { save: {} } },
    ],
    ['a negative correction budget', { toolPolicy: {}, maxCorrections: -1 }],
  ])('rejects %s at creation', (_case, options) => {
    expect(() => resolveAdapterOptions(registry, options)).toThrow(TypeError);
  });
});
