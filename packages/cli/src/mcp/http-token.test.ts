import { existsSync } from 'node:fs';
import {
  lstat,
  mkdtemp,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpToken, HTTP_TOKEN_BYTES, writeHttpTokenFile } from './http-token.js';

describe('createHttpToken', () => {
  it('draws 32 random bytes as base64url', () => {
    const token = createHttpToken();

    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(HTTP_TOKEN_BYTES);
  });
});

describe('writeHttpTokenFile', () => {
  let dir = '';
  let file = '';
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-token-')));
    file = path.join(dir, 'token');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes the token to a new owner-only file', async () => {
    const previous = process.umask(0);
    try {
      await writeHttpTokenFile(file, 'abc');
    } finally {
      process.umask(previous);
    }

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe('abc\n');
  });

  it('refuses an existing file without touching it', async () => {
    await writeFile(file, 'theirs');

    const attempt = writeHttpTokenFile(file, 'abc');

    await expect(attempt).rejects.toMatchObject({
      name: 'CliUsageError',
      message: '--token-file must name a file that does not exist yet',
    });
    expect(await readFile(file, 'utf8')).toBe('theirs');
  });

  it.each([
    ['to an existing file', true],
    ['left dangling', false],
  ])('refuses a symlink %s and writes nothing through it', async (_case, targetExists) => {
    const target = path.join(dir, 'target');
    if (targetExists) await writeFile(target, 'theirs');
    await symlink(target, file);

    const attempt = writeHttpTokenFile(file, 'abc');

    await expect(attempt).rejects.toMatchObject({ name: 'CliUsageError' });
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    if (targetExists) expect(await readFile(target, 'utf8')).toBe('theirs');
    else expect(existsSync(target)).toBe(false);
  });

  it('removes the file it wrote', async () => {
    const remove = await writeHttpTokenFile(file, 'abc');

    await remove();

    expect(existsSync(file)).toBe(false);
  });

  it('leaves a file swapped in since it wrote its own', async () => {
    const remove = await writeHttpTokenFile(file, 'abc');
    await unlink(file);
    await writeFile(file, 'theirs');

    await remove();

    expect(await readFile(file, 'utf8')).toBe('theirs');
  });
});
