import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCredentialResolver } from './resolve-credential.js';

describe('createCredentialResolver', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolhost-cred-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads a named credential from the environment', async () => {
    process.env['TOOLHOST_TEST_KEY'] = 'sekret';
    const resolve = createCredentialResolver({ brave: { env: 'TOOLHOST_TEST_KEY' } });

    await expect(resolve('brave')).resolves.toBe('sekret');
    delete process.env['TOOLHOST_TEST_KEY'];
  });

  it('reads the first line of a named credential file', async () => {
    await writeFile(join(dir, 'key'), 'line-one\nline-two\n');
    const resolve = createCredentialResolver({ key: { file: join(dir, 'key') } });

    await expect(resolve('key')).resolves.toBe('line-one');
  });

  it.each([
    ['an unknown name', 'nope'],
    ['a raw env reference', 'env:HOME'],
    ['a prototype key', '__proto__'],
  ])('refuses %s without echoing it', async (_case, ref) => {
    const resolve = createCredentialResolver({});

    await expect(resolve(ref)).rejects.toThrow('toolhost: unknown credential name');
  });

  it('refuses an unset variable', async () => {
    const resolve = createCredentialResolver({ gone: { env: 'TOOLHOST_TEST_UNSET_VAR' } });

    await expect(resolve('gone')).rejects.toThrow('credential not set');
  });
});
