import { defaultSandboxMode } from '@toolhost/node';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GRANT, resolveSettings } from './resolve-settings.js';

describe('resolveSettings', () => {
  it('defaults to the safe profile: read-only grant, sandboxed, ask, deny-all lists', () => {
    const settings = resolveSettings('/w/app', { config: {} }, {});

    expect(settings).toMatchObject({
      grant: DEFAULT_GRANT,
      fsScope: 'sandboxed',
      mode: 'ask',
      toolPolicy: { allowedCommands: [], allowedCommandGlobs: [], allowedDomains: [] },
      limits: { maxBytes: 51_200, maxLines: 2_000 },
      configFile: '/w/app/toolhost.config.json',
      configLoaded: false,
    });
  });

  it('lets a list flag replace the file list, never merge', () => {
    const loaded = {
      config: { allowedCommands: ['npm test'], mode: 'auto' as const },
      file: '/w/app/toolhost.config.json',
    };

    const settings = resolveSettings('/w/app', loaded, {
      allowCommands: ['git diff'],
      mode: 'ask',
    });

    expect(settings.toolPolicy.allowedCommands).toEqual(['git diff']);
    expect(settings.mode).toBe('ask');
  });

  it('resolves extra roots against the config file directory', () => {
    const loaded = {
      config: { extraRoots: ['../shared'] },
      file: '/w/app/cfg/toolhost.config.json',
    };

    const settings = resolveSettings('/w/app', loaded, {});

    expect(settings.extraRoots).toEqual(['/w/app/shared']);
  });

  it("defaults the sandbox to the platform's mode with no allowance", () => {
    const settings = resolveSettings('/w/app', { config: {} }, {});

    expect(settings).toMatchObject({
      sandbox: defaultSandboxMode(),
      sandboxSource: 'default',
      sandboxAllowance: {},
    });
  });

  it('lets the sandbox flags win over the process section', () => {
    const loaded = {
      config: {
        process: {
          sandbox: 'off' as const,
          network: { allowedDomains: ['registry.npmjs.org'] },
          readOnlyPaths: ['/opt/toolchain'],
        },
      },
      file: '/w/app/toolhost.config.json',
    };

    const settings = resolveSettings('/w/app', loaded, {
      sandbox: 'required',
      sandboxAllowDomains: ['example.com'],
    });

    expect(settings).toMatchObject({
      sandbox: 'required',
      sandboxSource: 'flag',
      sandboxAllowance: {
        network: { allowedDomains: ['example.com'] },
        readOnlyPaths: ['/opt/toolchain'],
      },
    });
  });

  it('keeps the network connection caps when a flag replaces the domains', () => {
    const loaded = {
      config: {
        process: {
          network: {
            allowedDomains: ['registry.npmjs.org'],
            maxConnectionsPerSandbox: 512,
            maxConnections: 2048,
          },
        },
      },
    };

    const settings = resolveSettings('/w/app', loaded, { sandboxAllowDomains: ['example.com'] });

    expect(settings.sandboxAllowance.network).toEqual({
      allowedDomains: ['example.com'],
      maxConnectionsPerSandbox: 512,
      maxConnections: 2048,
    });
  });

  it('takes the mode from the config when no flag says', () => {
    const loaded = { config: { process: { sandbox: 'off' as const } } };

    const settings = resolveSettings('/w/app', loaded, {});

    expect(settings).toMatchObject({ sandbox: 'off', sandboxSource: 'config' });
  });

  it('maps the limits onto the process budgets, memoryBytes staying address space', () => {
    const loaded = {
      config: {
        limits: {
          cpuSeconds: 10,
          memoryBytes: 1_000,
          openFiles: 64,
          fileSizeBytes: 2_000,
          treeMemoryBytes: 3_000,
          pids: 32,
        },
      },
    };

    const settings = resolveSettings('/w/app', loaded, {});

    expect(settings.budgets).toEqual({
      cpuSeconds: 10,
      addressSpaceBytes: 1_000,
      openFiles: 64,
      fileSizeBytes: 2_000,
      memoryBytes: 3_000,
      pids: 32,
    });
  });

  it.each([
    ['a bad sandbox flag', { sandbox: 'bogus' }, '--sandbox'],
    ['an empty sandbox domain', { sandboxAllowDomains: [' '] }, '--sandbox-allow-domain'],
    ['a bad mode flag', { mode: 'yolo' }, '--mode'],
    ['a bad tier flag', { fsScope: 'everything' }, '--fs-scope'],
    ['a zero ceiling', { maxBytes: 0 }, '--max-bytes'],
  ])('refuses %s', (_case, flags, named) => {
    expect(() => resolveSettings('/w/app', { config: {} }, flags)).toThrow(named);
  });
});
