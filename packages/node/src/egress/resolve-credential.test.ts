import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { resolveCredential, toAuthorization } from './resolve-credential.js';

describe('resolveCredential', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-cred-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('reads env:NAME', async () => {
    process.env.TOOLHOST_TEST_SECRET = 'env-secret-value';

    const secret = await resolveCredential('http_request', 'env:TOOLHOST_TEST_SECRET', undefined);

    expect(secret).toBe('env-secret-value');
  });

  it('reads file:/path and drops the trailing newline', async () => {
    await writeFile(join(base, 'key'), 'file-secret-value\n');

    const secret = await resolveCredential('http_request', `file:${join(base, 'key')}`, undefined);

    expect(secret).toBe('file-secret-value');
  });

  it('lets an embedder resolver decide alone', async () => {
    process.env.TOOLHOST_TEST_SECRET = 'env-secret-value';

    const secret = await resolveCredential('http_request', 'env:TOOLHOST_TEST_SECRET', (ref) =>
      ref === 'env:TOOLHOST_TEST_SECRET' ? 'from-resolver' : undefined,
    );

    expect(secret).toBe('from-resolver');
  });

  it.each([
    ['an unset variable', 'env:TOOLHOST_TEST_UNSET_VARIABLE'],
    ['a relative file', 'file:relative/key'],
    ['a missing file', 'file:/nonexistent/toolhost/key'],
    ['an unknown scheme', 'vault:secret/key'],
  ])('fails with credential_unavailable for %s, naming no ref', async (_case, ref) => {
    const attempt = resolveCredential('http_request', ref, undefined);

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_failed',
      reason: 'credential_unavailable',
      message: 'tool http_request failed: credential_unavailable',
    });
  });

  it('refuses a secret that would split the request', async () => {
    const attempt = resolveCredential('http_request', 'x', () => 'abc\r\nx-evil: 1');

    await expect(attempt).rejects.toMatchObject({ reason: 'credential_invalid' });
  });
});

describe('toAuthorization', () => {
  it('sends a bare token as Bearer', () => {
    expect(toAuthorization('abc123')).toBe('Bearer abc123');
  });

  it('sends a value that names its scheme as is', () => {
    expect(toAuthorization('Basic dXNlcjpwYXNz')).toBe('Basic dXNlcjpwYXNz');
  });
});
