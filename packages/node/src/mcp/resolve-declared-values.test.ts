import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCredentialRef } from './resolve-declared-values.js';

describe('resolveCredentialRef', () => {
  let directory = '';
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'toolhost-mcp-cred-'));
    process.env['TOOLHOST_TEST_MCP_TOKEN'] = 'env-secret';
  });
  afterEach(async () => {
    delete process.env['TOOLHOST_TEST_MCP_TOKEN'];
    await rm(directory, { recursive: true, force: true });
  });

  it('reads env:NAME and an absolute file:, trimmed', async () => {
    await writeFile(path.join(directory, 'token'), 'file-secret\n');

    expect(await resolveCredentialRef('env:TOOLHOST_TEST_MCP_TOKEN')).toBe('env-secret');
    expect(await resolveCredentialRef(`file:${path.join(directory, 'token')}`)).toBe('file-secret');
  });

  it.each([
    ['a relative file path', () => 'file:token'],
    ['a malformed variable name', () => 'env:TOOLHOST TEST'],
    ['an unknown scheme', () => 'vault:x'],
    ['a missing file', () => 'file:/nonexistent/toolhost-token'],
  ])('refuses %s without naming it', async (_case, ref) => {
    const attempt = resolveCredentialRef(ref());

    await expect(attempt).rejects.toThrow('toolhost: an mcp credentialRef could not be resolved');
  });

  it('refuses a secret holding a NUL, which no environment block can carry', async () => {
    await writeFile(path.join(directory, 'token'), 'abc\0def');

    const attempt = resolveCredentialRef(`file:${path.join(directory, 'token')}`);

    await expect(attempt).rejects.toThrow('could not be resolved');
  });
});
