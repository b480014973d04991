import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorContext } from './floor.js';
import { createSearchLister } from './search-list.js';
import { DIRECTORY_FLAGS } from './walk-components.js';

let base: string;
let floor: FloorContext;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-search-list-')));
  for (const directory of ['one', 'two']) {
    await mkdir(path.join(base, 'app', directory, '.SSH'), { recursive: true });
    for (const name of ['b.ts', 'B.ts', 'a.ts', '.env', '.ENV.local', '.e\u200cnv', 'ok.txt'])
      await writeFile(path.join(base, 'app', directory, name), 'x');
  }
  floor = {
    stateDir: path.join(base, 'state'),
    spillDir: path.join(base, 'state', 'spill'),
    configFile: path.join(base, 'app', 'toolhost.config.json'),
  };
});
afterAll(() => rm(base, { recursive: true, force: true }));

function names(list: (directory: { fd: number; path: string }) => { name: string }[], at: string) {
  const fd = openSync(at, DIRECTORY_FLAGS);
  try {
    return list({ fd, path: at }).map((dirent) => dirent.name);
  } finally {
    closeSync(fd);
  }
}

describe('createSearchLister', () => {
  it('lists in code-unit order and leaves out the floor, on any spelling, in every directory', () => {
    const lister = createSearchLister(floor);
    const list = (directory: { fd: number; path: string }) => lister.list(directory);

    // The second directory reuses the folded names of the first: the same verdicts.
    for (const directory of ['one', 'two'])
      expect(names(list, path.join(base, 'app', directory))).toEqual([
        'B.ts',
        'a.ts',
        'b.ts',
        'ok.txt',
      ]);
  });

  it('leaves a whole directory on the floor out', async () => {
    const lister = createSearchLister(floor);
    await mkdir(path.join(base, 'state', 'spill'), { recursive: true });
    await writeFile(path.join(base, 'state', 'other.json'), 'x');

    expect(names((directory) => lister.list(directory), base)).toEqual(['app']);
    expect(names((directory) => lister.list(directory), path.join(base, 'state'))).toEqual([
      'spill',
    ]);
  });
});
