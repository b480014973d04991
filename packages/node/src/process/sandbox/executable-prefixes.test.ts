import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executablePrefixes } from './executable-prefixes.js';

describe('executablePrefixes', () => {
  let base = '';
  let root = '';
  let tool = '';
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-prefixes-')));
    root = path.join(base, 'ws');
    tool = path.join(base, 'opt', 'tool');
    await mkdir(root);
    await mkdir(path.join(tool, 'bin'), { recursive: true });
    await writeFile(path.join(tool, 'bin', 'run'), '#!/bin/sh\n');
    await chmod(path.join(tool, 'bin', 'run'), 0o755);
    await writeFile(path.join(tool, 'bin', 'key'), 'not a program');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const prefixesFor = async (line: string): Promise<string[]> => {
    const script = path.join(root, 'script.sh');
    await writeFile(script, `${line}\n`);
    await chmod(script, 0o755);
    return executablePrefixes({
      file: script,
      searchPath: '/usr/bin:/bin',
      home: undefined,
      roots: [root],
      writable: [root],
    });
  };

  it.each([
    ['an executable interpreter shows its prefix', '#!OPT/bin/run', ['OPT']],
    ['a file that is no program shows nothing', '#!OPT/bin/key', []],
    ['a missing file shows nothing', '#!OPT/bin/missing', []],
    ['a .. spelling is resolved, not read as text', '#!/tmp/../bin/sh', []],
    ['an interpreter through the workspace shows nothing', '#!WS/lnk/bin/run', []],
  ])('%s', async (_case, line, expected) => {
    await symlink(tool, path.join(root, 'lnk'));
    const prefixes = await prefixesFor(line.replace('OPT', tool).replace('WS', root));

    expect(prefixes).toEqual(expected.map((entry) => entry.replace('OPT', tool)));
  });
});
