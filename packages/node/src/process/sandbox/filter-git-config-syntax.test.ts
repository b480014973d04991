import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  parseGitConfigListing,
  serialiseGitConfig,
  type GitConfigEntry,
} from './filter-git-config-syntax.js';

const listing = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('parseGitConfigListing', () => {
  it('splits the section at the first dot and the variable at the last', () => {
    const parsed = parseGitConfigListing(
      listing('remote.a.b.c.url\nhttps://x/\0core.bare\nfalse\0'),
    );

    expect(parsed).toEqual({
      entries: [
        { section: 'remote', subsection: 'a.b.c', variable: 'url', value: 'https://x/' },
        { section: 'core', subsection: undefined, variable: 'bare', value: 'false' },
      ],
      unusable: 0,
    });
  });

  it('tells a bare key from an empty value and an empty subsection from none', () => {
    const parsed = parseGitConfigListing(listing('core.bare\0core.abbrev\n\0branch..merge\nx\0'));

    expect(parsed.entries).toEqual([
      { section: 'core', subsection: undefined, variable: 'bare', value: undefined },
      { section: 'core', subsection: undefined, variable: 'abbrev', value: '' },
      { section: 'branch', subsection: '', variable: 'merge', value: 'x' },
    ]);
  });

  it('keeps newlines inside a value: only the first one ends the key', () => {
    const parsed = parseGitConfigListing(listing('branch.x.description\na\nb\0'));

    expect(parsed.entries[0]?.value).toBe('a\nb');
  });

  it.each([
    ['a key without a dot', 'core\nx\0'],
    ['an uppercase section', 'Core.bare\ntrue\0'],
    ['a variable starting with a digit', 'core.1bare\ntrue\0'],
    ['a record cut off before its NUL', 'core.bare\ntrue'],
  ])('counts %s as unusable', (_case, text) => {
    const parsed = parseGitConfigListing(listing(text));

    expect(parsed).toEqual({ entries: [], unusable: 1 });
  });

  it('counts a record that is not UTF-8 as unusable', () => {
    const stdout = Buffer.concat([listing('branch.x.description\n'), Buffer.from([0xff, 0])]);

    expect(parseGitConfigListing(stdout)).toEqual({ entries: [], unusable: 1 });
  });
});

describe('serialiseGitConfig', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-syntax-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('groups runs of one section under one header, in order', () => {
    const text = serialiseGitConfig([
      entry('remote', 'origin', 'url', 'https://x/'),
      entry('remote', 'origin', 'fetch', '+refs/heads/*:refs/remotes/origin/*'),
      entry('core', undefined, 'bare', 'false'),
      entry('remote', 'origin', 'fetch', 'refs/tags/*:refs/tags/*'),
    ]);

    expect(text).toBe(
      '[remote "origin"]\n' +
        '\turl = "https://x/"\n' +
        '\tfetch = "+refs/heads/*:refs/remotes/origin/*"\n' +
        '[core]\n' +
        '\tbare = "false"\n' +
        '[remote "origin"]\n' +
        '\tfetch = "refs/tags/*:refs/tags/*"\n',
    );
  });

  it('leaves a bare key bare', () => {
    expect(serialiseGitConfig([entry('core', undefined, 'bare', undefined)])).toBe(
      '[core]\n\tbare\n',
    );
  });

  it('writes values and subsections git reads back byte for byte', async () => {
    const entries = [
      entry('branch', 'q"u\\o.t e', 'description', ' a "b" \\c #d ;e\tf\ng\bh\ri\u0001é🙂 '),
      entry('branch', '', 'merge', ''),
      entry('core', undefined, 'bare', undefined),
    ];
    const file = join(base, 'config');

    await writeFile(file, serialiseGitConfig(entries));

    expect(gitList(file)).toEqual([
      ['branch.q"u\\o.t e.description', ' a "b" \\c #d ;e\tf\ng\bh\ri\u0001é🙂 '],
      ['branch..merge', ''],
      ['core.bare', undefined],
    ]);
  });
});

function entry(
  section: string,
  subsection: string | undefined,
  variable: string,
  value: string | undefined,
): GitConfigEntry {
  return { section, subsection, variable, value };
}

// Git's own reading of a file, as [key, value] pairs (value undefined for a bare key).
function gitList(file: string): (readonly [string, string | undefined])[] {
  const stdout = execFileSync('git', ['config', '--file', file, '--no-includes', '--list', '-z'], {
    encoding: 'utf8',
  });
  return stdout
    .split('\0')
    .slice(0, -1)
    .map((record) => {
      const newline = record.indexOf('\n');
      return newline === -1
        ? [record, undefined]
        : [record.slice(0, newline), record.slice(newline + 1)];
    });
}
