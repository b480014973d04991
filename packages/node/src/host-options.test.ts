import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveHostOptions } from './host-options.js';
import type { NodeToolHostOptions } from './host-options.js';

describe('resolveHostOptions', () => {
  let base = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-options-')));
    await mkdir(path.join(base, 'app'));
    await mkdir(path.join(base, 'extra'));
    await writeFile(path.join(base, 'file.txt'), 'x');
    await symlink(path.join(base, 'app'), path.join(base, 'app-link'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const state = () => path.join(base, 'state');

  it.each<[string, (base: string) => Partial<NodeToolHostOptions>, RegExp]>([
    ['a missing root', () => ({ root: '' }), /root is required/],
    ['a root that does not exist', (b) => ({ root: path.join(b, 'nope') }), /root does not exist/],
    [
      'a root that is a file',
      (b) => ({ root: path.join(b, 'file.txt') }),
      /root must be a directory/,
    ],
    ['an unknown tier', () => ({ fsScope: 'everything' as 'full' }), /fsScope/],
    ['a relative extra root', () => ({ fsScope: 'project', extraRoots: ['extra'] }), /absolute/],
    [
      'extra roots outside the project tier',
      (b) => ({ extraRoots: [path.join(b, 'extra')] }),
      /requires fsScope/,
    ],
    ['a relative state dir', () => ({ stateDir: 'state' }), /stateDir must be an absolute/],
    ['a run id with a separator', () => ({ runId: '../x' }), /runId/],
  ])('rejects %s at construction', async (_label, options, message) => {
    const attempt = resolveHostOptions({
      root: path.join(base, 'app'),
      stateDir: state(),
      ...options(base),
    });

    await expect(attempt).rejects.toThrow(message);
  });

  it('never names a path in its errors', async () => {
    const error = await resolveHostOptions({
      root: path.join(base, 'nope'),
      stateDir: state(),
    }).catch((caught: Error) => caught);

    expect((error as Error).message).not.toContain(base);
  });

  it('fills the defaults and resolves every path to its real path', async () => {
    const resolved = await resolveHostOptions({
      root: path.join(base, 'app-link'),
      stateDir: state(),
    });

    expect(resolved).toMatchObject({
      root: path.join(base, 'app'),
      fsScope: 'sandboxed',
      extraRoots: [],
      stateDir: state(),
      readOnly: false,
      configFile: path.join(base, 'app', 'toolhost.config.json'),
    });
    expect(resolved.runId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the project tier extra roots', async () => {
    const resolved = await resolveHostOptions({
      root: path.join(base, 'app'),
      stateDir: state(),
      fsScope: 'project',
      extraRoots: [path.join(base, 'extra')],
    });

    expect(resolved.extraRoots).toEqual([path.join(base, 'extra')]);
  });
});
