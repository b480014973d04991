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

  it.each([
    ['a bad mode flag', { mode: 'yolo' }, '--mode'],
    ['a bad tier flag', { fsScope: 'everything' }, '--fs-scope'],
    ['a zero ceiling', { maxBytes: 0 }, '--max-bytes'],
  ])('refuses %s', (_case, flags, named) => {
    expect(() => resolveSettings('/w/app', { config: {} }, flags)).toThrow(named);
  });
});
