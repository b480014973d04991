import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmod,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  filterGitConfig,
  GitConfigFilterError,
  type GitConfigFilterFailure,
} from './filter-git-config.js';

const GIT = '/usr/bin/git';

describe('filterGitConfig', () => {
  let base = '';
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'toolhost-filter-'));
    await mkdir(join(base, 'home'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  // A git that sees nothing of this machine's own config.
  const git = (args: readonly string[], cwd = base): string =>
    execFileSync(GIT, args, { cwd, env: cleanEnv(base), encoding: 'utf8' });
  const filterInto = async (input: string): Promise<{ out: string; droppedKeys: number }> => {
    const filtered = await filterGitConfig(input);
    const out = join(base, 'out');
    await writeFile(out, filtered.text);
    return { out, droppedKeys: filtered.droppedKeys };
  };

  describe('round trip', () => {
    it('keeps allowed entries exactly as git reads them, tricky values included', async () => {
      const input = join(base, 'in');
      for (const [key, value] of [
        ['core.repositoryformatversion', '0'],
        ['core.bare', 'false'],
        ['remote.origin.url', 'https://github.com/o/r.git'],
        ['remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*'],
        ['remote.origin.fetch', '+refs/tags/*:refs/tags/*'],
        ['branch.main.description', ' lead\ttab "q" back\\slash #hash ;semi trail '],
        ['branch.main.description', 'line1\nline2\b\r\u0001 é 🙂 日本'],
        ['branch.we"ird\\back.sl.ash.remote', 'origin'],
        ['branch.Feature/X.merge', 'refs/heads/Feature/X'],
        ['branch.empty.merge', ''],
        ['user.name', 'Zoë "Z" O\'Brien'],
      ] as const) {
        git(['config', '--file', input, '--add', key, value]);
      }

      const { out, droppedKeys } = await filterInto(input);

      expect(gitListing(out)).toEqual(gitListing(input));
      expect(droppedKeys).toBe(0);
    });

    it('reads hand-written syntax the way git does: case, comments, continuations, bare keys', async () => {
      const input = join(base, 'in');
      await writeFile(
        input,
        [
          '# comment',
          '; another',
          '[Core]',
          '\tRepositoryFormatVersion = 0',
          '\tBare = false ; trailing comment',
          '\tIgnoreCase',
          '[remote "Up.Stream"]',
          '\tURL = https://example.com/a\\',
          'b.git',
          '\tfetch = "+refs/heads/*:refs/remotes/Up.Stream/*" # comment',
          '[branch.Dev]',
          '\tremote = Up.Stream',
          '\tdescription = "  quoted \\"x\\" \\\\ \\t tab  " unquoted tail   ',
          '[branch ""]',
          '\tmerge =',
          '',
        ].join('\n'),
      );

      const { out, droppedKeys } = await filterInto(input);

      expect(gitListing(out)).toEqual(gitListing(input));
      expect(gitListing(out).toString('utf8')).toContain('core.ignorecase\0');
      expect(droppedKeys).toBe(0);
    });
  });

  describe('dropping', () => {
    const allowed: readonly (readonly [string, string])[] = [
      ['core.repositoryformatversion', '0'],
      ['core.filemode', 'true'],
      ['remote.origin.url', 'https://github.com/o/r.git'],
      ['remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*'],
      ['branch.main.remote', 'origin'],
      ['submodule.lib.url', 'https://github.com/o/lib.git'],
      ['user.email', 'a@example.com'],
    ];
    let shared = '';
    let text = '';
    let droppedKeys = 0;
    let keys: readonly (string | undefined)[] = [];
    beforeAll(async () => {
      shared = await mkdtemp(join(tmpdir(), 'toolhost-filter-drop-'));
      const input = join(shared, 'in');
      // Allowed and refused keys interleaved, so the order of what is kept is checked too.
      for (const [index, [key, value]] of DROPPED.entries()) {
        execFileSync(GIT, ['config', '--file', input, '--add', key, value]);
        const kept = allowed[index];
        if (kept !== undefined) {
          execFileSync(GIT, ['config', '--file', input, '--add', ...kept]);
          execFileSync(GIT, ['config', '--file', join(shared, 'allowed'), '--add', ...kept]);
        }
      }
      ({ text, droppedKeys } = await filterGitConfig(input));
      await writeFile(join(shared, 'out'), text);
      keys = gitListing(join(shared, 'out'))
        .toString('utf8')
        .split('\0')
        .map((record) => record.split('\n')[0]);
    });
    afterAll(() => rm(shared, { recursive: true, force: true }));

    it('keeps exactly the allowed entries, in order', () => {
      expect(gitListing(join(shared, 'out'))).toEqual(gitListing(join(shared, 'allowed')));
    });

    it.each(DROPPED)('drops %s', (key, value) => {
      expect(keys).not.toContain(canonicalKey(key));
      expect(text).not.toContain(value);
    });

    it('counts every dropped entry and keeps no trace of one', () => {
      expect(droppedKeys).toBe(DROPPED.length);
      expect(text).not.toMatch(/EVIL/);
    });
  });

  it('strips a token from a remote URL and drops a helper URL', async () => {
    const input = join(base, 'in');
    git([
      'config',
      '--file',
      input,
      'remote.origin.url',
      'https://x-access-token:ghp_T0KEN@github.com/o/r',
    ]);
    git(['config', '--file', input, 'remote.origin.pushurl', 'ssh://git:hunter2@github.com/o/r']);
    git(['config', '--file', input, 'remote.evil.url', 'ext::sh -c touch% /tmp/pwned']);

    const { out, droppedKeys } = await filterInto(input);

    expect(git(['config', '--file', out, '--get-regexp', '.'])).toBe(
      'remote.origin.url https://github.com/o/r\n' +
        'remote.origin.pushurl ssh://git@github.com/o/r\n',
    );
    expect(droppedKeys).toBe(1);
  });

  it('keeps a repository working in a copy with the filtered config, and runs none of its programs', async () => {
    const repo = join(base, 'repo');
    const marks = join(base, 'marks');
    await mkdir(marks);
    git(['init', '-q', '-b', 'main', repo]);
    const hooks = join(base, 'hooks');
    await mkdir(hooks);
    await script(join(hooks, 'pre-commit'), `touch ${marks}/pre-commit; exit 1`);
    const fsmonitor = await script(join(base, 'fsmonitor'), `touch ${marks}/fsmonitor; exit 1`);
    await writeFile(join(base, 'included'), `[core]\n\tpager = touch ${marks}/included\n`);
    await writeFile(join(repo, 'a.txt'), 'hello\n');
    await writeFile(join(repo, '.gitattributes'), '*.txt filter=evil diff=evil\n');
    git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'add', '.'], repo);
    git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init'], repo);
    for (const [key, value] of [
      ['remote.origin.url', 'https://x-access-token:ghp_SECRET@github.com/o/r.git'],
      ['filter.evil.clean', `touch ${marks}/clean; cat`],
      ['filter.evil.smudge', `touch ${marks}/smudge; cat`],
      ['filter.evil.required', 'true'],
      ['diff.evil.textconv', `touch ${marks}/textconv; cat`],
      ['core.fsmonitor', fsmonitor],
      ['core.hooksPath', hooks],
      ['include.path', join(base, 'included')],
      ['user.name', 'Repo User'],
      ['user.email', 'repo@example.com'],
    ] as const) {
      git(['config', key, value], repo);
    }
    // Control: the original really runs its programs, so their absence below means something.
    // Same size, new content: git must hash the file again, through the clean filter.
    await writeFile(join(repo, 'a.txt'), 'HELLO\n');
    git(['status', '--porcelain'], repo);
    expect((await readdir(marks)).sort()).toEqual(['clean', 'fsmonitor']);
    await rm(marks, { recursive: true });
    await mkdir(marks);
    const copy = join(base, 'copy');
    await cp(repo, copy, { recursive: true });

    const filtered = await filterGitConfig(join(repo, '.git', 'config'));
    await writeFile(join(copy, '.git', 'config'), filtered.text);

    expect(git(['status', '--porcelain'], copy)).toBe(' M a.txt\n');
    expect(git(['log', '-p', '--format=%s'], copy)).toContain('init');
    git(['commit', '-qam', 'second'], copy);
    expect(git(['log', '--format=%s <%ae>'], copy)).toBe(
      'second <repo@example.com>\ninit <t@example.com>\n',
    );
    expect(git(['remote', 'get-url', 'origin'], copy)).toBe('https://github.com/o/r.git\n');
    expect(await readdir(marks)).toEqual([]);
    for (const trace of ['ghp_SECRET', 'x-access-token', 'touch', 'evil', base]) {
      expect(filtered.text).not.toContain(trace);
    }
  });

  it('keeps the object format a sha256 repository cannot be read without', async () => {
    const repo = join(base, 'repo');
    git(['init', '-q', '--object-format=sha256', repo]);
    git(
      [
        '-c',
        'user.name=T',
        '-c',
        'user.email=t@example.com',
        'commit',
        '-q',
        '--allow-empty',
        '-m',
        'init',
      ],
      repo,
    );
    const copy = join(base, 'copy');
    await cp(repo, copy, { recursive: true });

    const filtered = await filterGitConfig(join(repo, '.git', 'config'));
    await writeFile(join(copy, '.git', 'config'), filtered.text);

    expect(filtered.text).toContain('objectformat = "sha256"');
    expect(git(['log', '--format=%s'], copy)).toBe('init\n');
  });

  it('drops extensions.worktreeConfig: git must not read a config.worktree nobody filtered', async () => {
    const repo = join(base, 'repo');
    git(['init', '-q', repo]);
    git(['config', 'extensions.worktreeConfig', 'true'], repo);
    git(['config', '--worktree', 'core.pager', 'touch /tmp/pwned'], repo);
    const copy = join(base, 'copy');
    await cp(repo, copy, { recursive: true });

    const filtered = await filterGitConfig(join(repo, '.git', 'config'));
    await writeFile(join(copy, '.git', 'config'), filtered.text);

    expect(filtered.text).not.toContain('worktree');
    expect(
      spawnSync(GIT, ['config', 'core.pager'], { cwd: copy, env: cleanEnv(base) }).status,
    ).toBe(1);
  });

  describe('fails closed', () => {
    const failures: readonly (readonly [
      string,
      GitConfigFilterFailure,
      (file: string) => Promise<unknown>,
    ])[] = [
      ['a syntax error', 'git_failed', async (file: string) => writeFile(file, '[core\n\tbare\n')],
      ['a missing file', 'config_unreadable', async () => undefined],
      ['a directory', 'config_unreadable', async (file: string) => mkdir(file)],
      ['a FIFO', 'config_unreadable', async (file: string) => void execFileSync('mkfifo', [file])],
      [
        // Inside the sandbox the copy would show a file from outside its view.
        'a symlink to a config elsewhere',
        'config_unreadable',
        async (file: string) => {
          await writeFile(`${file}.target`, '[user]\n\temail = elsewhere@example.com\n');
          await symlink(`${file}.target`, file);
        },
      ],
      [
        'a file over 4 MiB',
        'config_too_large',
        async (file: string) => writeFile(file, Buffer.alloc(4 * 1024 * 1024 + 1, '#')),
      ],
      [
        // A long subsection repeats in every listed key: small file, huge listing.
        'a listing over 4 MiB',
        'output_too_large',
        async (file: string) =>
          writeFile(file, `[branch "${'a'.repeat(2000)}"]\n${'\tmerge\n'.repeat(3000)}`),
      ],
    ];

    it.each(failures)('on %s', async (_case, reason, arrange) => {
      const file = join(base, 'config');
      await arrange(file);

      const attempt = filterGitConfig(file);

      await expect(attempt).rejects.toBeInstanceOf(GitConfigFilterError);
      await expect(attempt).rejects.toMatchObject({ name: 'GitConfigFilterError', reason });
      await expect(attempt).rejects.toThrow(`repository git config not filtered: ${reason}`);
    });

    it('when the given git does not exist', async () => {
      const file = join(base, 'config');
      await writeFile(file, '[core]\n\tbare = false\n');

      const attempt = filterGitConfig(file, { gitFile: join(base, 'no-git') });

      await expect(attempt).rejects.toMatchObject({ reason: 'git_not_found' });
    });
  });

  it('refuses a relative path', async () => {
    await expect(filterGitConfig('.git/config')).rejects.toBeInstanceOf(TypeError);
  });

  it('rejects with the abort reason', async () => {
    const file = join(base, 'config');
    await writeFile(file, '[core]\n\tbare = false\n');
    const reason = new Error('stop');

    const attempt = filterGitConfig(file, { signal: AbortSignal.abort(reason) });

    await expect(attempt).rejects.toBe(reason);
  });

  describe('cache', () => {
    // A git that counts its runs, so a cache hit is seen as a run that did not happen.
    const countingGit = async (): Promise<{ gitFile: string; runs: () => Promise<number> }> => {
      const count = join(base, 'runs');
      await writeFile(count, '');
      const gitFile = await script(join(base, 'git'), `echo run >> ${count}\nexec ${GIT} "$@"`);
      return { gitFile, runs: async () => (await readFile(count, 'utf8')).split('\n').length - 1 };
    };

    it('answers a repeat on an unchanged file without running git', async () => {
      const { gitFile, runs } = await countingGit();
      const file = join(base, 'config');
      await writeFile(file, '[core]\n\tbare = false\n');

      const first = await filterGitConfig(file, { gitFile });
      const second = await filterGitConfig(file, { gitFile });

      expect(second).toBe(first);
      expect(await runs()).toBe(1);
    });

    it('reads again after a write that keeps the size and the mtime', async () => {
      const { gitFile, runs } = await countingGit();
      const file = join(base, 'config');
      const when = 1_700_000_000;
      await writeFile(file, '[remote "o"]\n\turl = https://a.example/r\n');
      await utimes(file, when, when);
      const before = await stat(file, { bigint: true });
      await filterGitConfig(file, { gitFile });

      await writeFile(file, '[remote "o"]\n\turl = https://b.example/r\n');
      await utimes(file, when, when);
      const after = await stat(file, { bigint: true });
      const filtered = await filterGitConfig(file, { gitFile });

      expect([after.size, after.mtimeNs, after.ino]).toEqual([
        before.size,
        before.mtimeNs,
        before.ino,
      ]);
      expect(filtered.text).toContain('b.example');
      expect(await runs()).toBe(2);
    });

    it('holds at most 256 files, evicting the least recently used', async () => {
      const { gitFile, runs } = await countingGit();
      const files = Array.from({ length: 257 }, (_, index) => join(base, `config-${index}`));
      for (const file of files) await writeFile(file, '[core]\n\tbare = false\n');
      for (const file of files) await filterGitConfig(file, { gitFile });

      await filterGitConfig(files[256] ?? '', { gitFile });
      const hitRuns = await runs();
      await filterGitConfig(files[0] ?? '', { gitFile });

      expect(hitRuns).toBe(257);
      expect(await runs()).toBe(258);
    });
  });
});

// Every key the git-config manual names that runs a program, loads a file, carries a credential or
// rewrites where git connects. Values are unique markers, so a leak in any value is seen.
const DROPPED: readonly (readonly [string, string])[] = [
  'core.fsmonitor',
  'core.hooksPath',
  'core.sshCommand',
  'core.editor',
  'core.pager',
  'core.askPass',
  'core.gitProxy',
  'core.alternateRefsCommand',
  'core.attributesFile',
  'core.excludesFile',
  'core.notesRef',
  'filter.lfs.clean',
  'filter.lfs.smudge',
  'filter.lfs.process',
  'filter.lfs.required',
  'diff.pdf.textconv',
  'diff.pdf.command',
  'diff.external',
  'diff.tool',
  'diff.guitool',
  'diff.orderFile',
  'merge.ours.driver',
  'merge.tool',
  'merge.guitool',
  'merge.verifySignatures',
  'gpg.program',
  'gpg.ssh.program',
  'gpg.x509.program',
  'gpg.openpgp.program',
  'gpg.ssh.defaultKeyCommand',
  'gpg.ssh.allowedSignersFile',
  'user.signingKey',
  'credential.helper',
  'credential.username',
  'credential.https://example.com.helper',
  'http.extraHeader',
  'http.https://example.com/.extraHeader',
  'http.cookieFile',
  'http.sslKey',
  'http.sslCert',
  'http.proxy',
  'http.sslVerify',
  'include.path',
  'includeIf.gitdir:/x/.path',
  'alias.st',
  'sequence.editor',
  'pager.log',
  'uploadpack.packObjectsHook',
  'remote.origin.receivepack',
  'remote.origin.uploadpack',
  'remote.origin.proxy',
  'remote.origin.vcs',
  'submodule.lib.update',
  'url.https://evil.example/.insteadOf',
  'url.https://evil.example/.pushInsteadOf',
  'sendemail.smtpServer',
  'sendemail.sendmailCmd',
  'sendemail.toCmd',
  'sendemail.ccCmd',
  'imap.tunnel',
  'trailer.sign.command',
  'trailer.sign.cmd',
  'web.browser',
  'browser.firefox.cmd',
  'browser.firefox.path',
  'help.browser',
  'instaweb.browser',
  'instaweb.httpd',
  'man.viewer',
  'man.foo.cmd',
  'man.foo.path',
  'difftool.foo.cmd',
  'difftool.foo.path',
  'mergetool.foo.cmd',
  'mergetool.foo.path',
  'guitool.foo.cmd',
  'interactive.diffFilter',
  'commit.gpgSign',
  'commit.template',
  'tag.gpgSign',
  'tag.forceSignAnnotated',
  'push.gpgSign',
  'log.showSignature',
  'protocol.allow',
  'protocol.ext.allow',
  'safe.directory',
  'safe.bareRepository',
  'init.templateDir',
  'branch.main.mergeOptions',
  'pull.twohead',
  'pull.octopus',
  'ssh.variant',
  'extensions.worktreeConfig',
  'mailmap.file',
  'blame.ignoreRevsFile',
  'fetch.fsck.skipList',
  'bundle.origin.uri',
  'trace2.eventTarget',
  'hook.lint.command',
  'lfs.url',
].map((key, index) => [key, `EVIL-${index}-${key.length}`] as const);

// Git's own spelling of a key: section and variable lowercased, subsection as given.
function canonicalKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  return first === last
    ? key.toLowerCase()
    : `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

function cleanEnv(base: string): Record<string, string> {
  return { PATH: '/usr/bin:/bin', HOME: join(base, 'home'), GIT_CONFIG_NOSYSTEM: '1' };
}

// Git's reading of one file, byte for byte: the round trip is judged by git, not by this code.
function gitListing(file: string): Buffer {
  return execFileSync(GIT, ['config', '--file', file, '--no-includes', '--list', '-z'], {
    env: { PATH: '/usr/bin:/bin' },
  });
}

async function script(file: string, body: string): Promise<string> {
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}
