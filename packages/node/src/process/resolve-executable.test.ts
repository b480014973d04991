import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveExecutable } from './resolve-executable.js';

describe('resolveExecutable', () => {
  let base = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-resolve-')));
    for (const directory of ['first', 'second', 'root']) await mkdir(path.join(base, directory));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const install = async (directory: string, mode = 0o755): Promise<string> => {
    const file = path.join(base, directory, 'tool');
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, mode);
    return file;
  };
  const resolve = (searchPath: string): Promise<string> =>
    resolveExecutable({
      command: 'tool',
      searchPath,
      cwd: path.join(base, 'root'),
      root: path.join(base, 'root'),
    });

  it('takes the first executable match on PATH', async () => {
    await install('first');
    await install('second');

    const file = await resolve(`${base}/first:${base}/second`);

    expect(file).toBe(path.join(base, 'first', 'tool'));
  });

  it('skips a file without the execute bit', async () => {
    await install('first', 0o644);
    await install('second');

    const file = await resolve(`${base}/first:${base}/second`);

    expect(file).toBe(path.join(base, 'second', 'tool'));
  });

  it('searches again when a remembered executable is gone', async () => {
    const first = await install('first');
    await install('second');
    const searchPath = `${base}/first:${base}/second`;
    await resolve(searchPath);
    await rm(first);

    const file = await resolve(searchPath);

    expect(file).toBe(path.join(base, 'second', 'tool'));
  });

  it('ignores relative PATH entries', async () => {
    await install('root');

    const attempt = resolve(`.:root:`);

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_found' });
  });
});
