import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../config/resolve-settings.js';
import { describeProcessFloors } from './describe-process-floors.js';

describe('describeProcessFloors', () => {
  let base = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-floors-')));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('describes commands on the host when the sandbox is off', async () => {
    const settings = resolveSettings(
      base,
      { config: {} },
      { sandbox: 'off', stateDir: path.join(base, 'state') },
    );

    const floors = await describeProcessFloors(settings);

    expect(floors?.sandbox).toMatchObject({
      mode: 'off',
      filesystem: 'host (sandbox off)',
      capabilities: 'host',
    });
  });

  it('carries a network allowance into the description', async () => {
    const settings = resolveSettings(
      base,
      { config: {} },
      { sandbox: 'required', sandboxAllowDomains: ['example.com'], stateDir: path.join(base, 's') },
    );

    const floors = await describeProcessFloors(settings);

    expect(floors?.sandbox).toMatchObject({
      mode: 'required',
      network: { allowedDomains: ['example.com'] },
    });
  });
});
