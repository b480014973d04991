import { describe, expect, it } from 'vitest';
import { keepGitConfigEntry, stripUrlCredentials } from './filter-git-config-allowlist.js';
import type { GitConfigEntry } from './filter-git-config-syntax.js';

describe('stripUrlCredentials', () => {
  it.each([
    ['https user and token', 'https://user:tok@github.com/o/r.git', 'https://github.com/o/r.git'],
    ['a token as the user', 'https://tok@github.com/o/r.git', 'https://github.com/o/r.git'],
    ['an @ inside the password', 'https://u:p@ss@host/r', 'https://host/r'],
    ['a ? inside the password', 'https://u:p?ss@host/r', 'https://host/r'],
    ['a port', 'http://u:p@host:8080/r', 'http://host:8080/r'],
    ['no path', 'https://u:p@host', 'https://host'],
    ['an @ only in the path', 'https://host/a@b', 'https://host/a@b'],
    ['ftps', 'ftps://u:p@host/r', 'ftps://host/r'],
    ['git://', 'git://u@host/r', 'git://host/r'],
    ['file://', 'file://u:p@localhost/srv/r', 'file://localhost/srv/r'],
    ['ssh user and password', 'ssh://git:pw@host:22/r', 'ssh://git@host:22/r'],
    ['ssh user only', 'ssh://git@host/r', 'ssh://git@host/r'],
    ['ssh password only', 'ssh://:pw@host/r', 'ssh://host/r'],
    ['git+ssh', 'git+ssh://me:pw@host/r', 'git+ssh://me@host/r'],
    ['scp-like', 'git@github.com:o/r.git', 'git@github.com:o/r.git'],
    ['a local path', '/srv/repos/r.git', '/srv/repos/r.git'],
    ['a relative path with a colon', './a:b', './a:b'],
    ['a remote name', 'origin', 'origin'],
  ])('rewrites %s', (_case, url, expected) => {
    expect(stripUrlCredentials(url)).toBe(expected);
  });

  it.each([
    ['ext:: (runs a command line)', 'ext::sh -c touch% /tmp/pwned'],
    ['fd::', 'fd::17'],
    ['a named remote helper', 'persistent-https::https://host/r'],
    ['an empty helper name', '::https://host/r'],
    ['an unknown scheme (git-remote-<scheme>)', 'evil://host/r'],
    ['an uppercase scheme (git matches case-sensitively)', 'HTTPS://host/r'],
  ])('drops %s', (_case, url) => {
    expect(stripUrlCredentials(url)).toBeUndefined();
  });
});

describe('keepGitConfigEntry', () => {
  it.each([
    ['core.repositoryformatversion', entry('core', undefined, 'repositoryformatversion', '1')],
    ['core.worktree', entry('core', undefined, 'worktree', '../../../sub')],
    ['extensions.objectformat', entry('extensions', undefined, 'objectformat', 'sha256')],
    ['an unknown extension (git refuses it)', entry('extensions', undefined, 'future', 'x')],
    ['remote.<name>.fetch', entry('remote', 'up.stream', 'fetch', '+refs/*:refs/*')],
    ['branch.<name>.merge', entry('branch', 'Main', 'merge', 'refs/heads/Main')],
    ['submodule.<name>.path', entry('submodule', 'lib', 'path', 'lib')],
    ['user.email', entry('user', undefined, 'email', 'a@example.com')],
    ['a bare boolean', entry('core', undefined, 'bare', undefined)],
  ])('keeps %s as is', (_case, allowed) => {
    expect(keepGitConfigEntry(allowed)).toEqual(allowed);
  });

  it.each([
    ['remote.<name>.url', entry('remote', 'o', 'url', 'https://t@h/r'), 'https://h/r'],
    ['remote.<name>.pushurl', entry('remote', 'o', 'pushurl', 'https://t@h/r'), 'https://h/r'],
    ['branch.<name>.remote', entry('branch', 'b', 'remote', 'https://t@h/r'), 'https://h/r'],
    ['branch.<name>.pushremote', entry('branch', 'b', 'pushremote', 'https://t@h/'), 'https://h/'],
    ['remote.pushdefault', entry('remote', undefined, 'pushdefault', 'https://t@h/'), 'https://h/'],
    ['submodule.<name>.url', entry('submodule', 's', 'url', 'https://t@h/r'), 'https://h/r'],
  ])('strips credentials from %s', (_case, input, url) => {
    expect(keepGitConfigEntry(input)?.value).toBe(url);
  });

  it.each([
    ['remote.<name>.url', entry('remote', 'o', 'url', 'ext::sh -c id')],
    ['submodule.<name>.url', entry('submodule', 's', 'url', 'evil://h/r')],
    ['branch.<name>.remote', entry('branch', 'b', 'remote', 'fd::3')],
  ])('drops a helper URL in %s', (_case, input) => {
    expect(keepGitConfigEntry(input)).toBeUndefined();
  });

  it.each([
    ['a subsection on a plain key', entry('core', 'x', 'bare', 'true')],
    ['no subsection on a per-remote key', entry('remote', undefined, 'url', 'https://h/r')],
    ['an extension in a subsection', entry('extensions', 'x', 'objectformat', 'sha256')],
    [
      'extensions.worktreeconfig (reads config.worktree)',
      entry('extensions', undefined, 'worktreeconfig', 'true'),
    ],
    ['an unknown section', entry('toolhost', undefined, 'x', 'y')],
  ])('drops %s', (_case, input) => {
    expect(keepGitConfigEntry(input)).toBeUndefined();
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
