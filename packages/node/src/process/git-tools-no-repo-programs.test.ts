import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  type ToolDispatchContext,
  type ToolDispatchOutcome,
} from '@toolhost/core';
import { createNodeToolHost, type NodeToolHostHandle } from '../create-node-tool-host.js';

// Every program a hostile repository can name for status, log, diff and commit. Each one, if it
// ever runs, leaves a file named after itself in `<root>/markers` (inside the workspace, so a
// program run inside the sandbox can still leave it).
const HOOKS = [
  'post-index-change',
  'pre-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'reference-transaction',
  'pre-auto-gc',
  'post-rewrite',
] as const;

type HookPlace = 'git-dir hooks' | 'core.hooksPath from an included file';

interface Workspace {
  readonly base: string;
  readonly root: string;
  readonly markers: string;
  readonly home: string;
}

let workspace: Workspace;
let handle: NodeToolHostHandle | undefined;

beforeEach(async () => {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-git-hostile-')));
  const root = path.join(base, 'app');
  const markers = path.join(root, 'markers');
  const home = path.join(base, 'home');
  await mkdir(markers, { recursive: true });
  await mkdir(home);
  workspace = { base, root, markers, home };
});

afterEach(async () => {
  await handle?.close();
  handle = undefined;
  await rm(workspace.base, { recursive: true, force: true });
});

function git(args: readonly string[], env: Readonly<Record<string, string>> = {}): string {
  return execFileSync('git', [...args], {
    cwd: workspace.root,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: workspace.home, GIT_CONFIG_NOSYSTEM: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

// The test's own look at the result, with nothing of the repository's allowed to run.
function inspect(args: readonly string[]): string {
  return git(['-c', 'core.hooksPath=/dev/null', '-c', 'log.showSignature=false', ...args]);
}

// A shell snippet (filters, textconv, editors, pagers, sshCommand run through `sh -c`).
function touch(name: string): string {
  return `touch ${path.join(workspace.markers, name)}; cat`;
}

// An executable that leaves its marker and passes stdin through (hooks, gpg programs).
async function program(directory: string, name: string, marker: string): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, `#!/bin/sh\ntouch ${path.join(workspace.markers, marker)}\ncat\n`);
  await chmod(file, 0o755);
  return file;
}

/** A repository with every hostile program configured, one tracked file per driver attribute. */
async function buildHostileRepository(hookPlace: HookPlace): Promise<void> {
  const { root, base } = workspace;
  git(['init', '-q']);
  git(['config', 'user.name', 'fixture']);
  git(['config', 'user.email', 'fixture@example.org']);
  await writeFile(path.join(root, '.git', 'info', 'exclude'), 'markers/\n');
  // Drivers selected by the tree's attributes, by `.git/info/attributes`, and one whose name
  // holds a dot (git splits the key at the first and the last dot).
  await writeFile(
    path.join(root, '.gitattributes'),
    '*.txt filter=evil diff=evil\n*.md filter=a.b diff=a.b\n*.inc filter=included\n',
  );
  await writeFile(path.join(root, '.git', 'info', 'attributes'), '*.dat filter=info diff=info\n');
  for (const file of ['a.txt', 'b.dat', 'c.md', 'd.inc'])
    await writeFile(path.join(root, file), 'one\n');
  git(['add', '-A']);
  git(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'initial']);
  await writeSignedCommits();
  // A second content commit, so `log -p` and `diff HEAD~1` have a text diff to convert.
  for (const file of ['a.txt', 'b.dat', 'c.md', 'd.inc'])
    await writeFile(path.join(root, file), 'two\n');
  git(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-a', '-m', 'second']);

  const bin = path.join(base, 'bin');
  await mkdir(bin);
  const config: [string, string][] = [
    ['core.fsmonitor', touch('fsmonitor')],
    ['core.pager', touch('core-pager')],
    ['pager.status', touch('pager-status')],
    ['pager.log', touch('pager-log')],
    ['core.editor', touch('core-editor')],
    ['sequence.editor', touch('sequence-editor')],
    ['core.sshCommand', touch('ssh-command')],
    ['core.askPass', await program(bin, 'askpass', 'askpass')],
    ['diff.external', touch('diff-external')],
    ['log.showSignature', 'true'],
    ['format.pretty', 'format:%h %G? %s'],
    ['commit.gpgSign', 'true'],
    ['user.signingKey', 'fixture'],
    ['gpg.program', await program(bin, 'gpg', 'gpg-program')],
    ['gpg.openpgp.program', await program(bin, 'gpg-openpgp', 'gpg-openpgp-program')],
    ['gpg.ssh.program', await program(bin, 'gpg-ssh', 'gpg-ssh-program')],
    ['gpg.x509.program', await program(bin, 'gpg-x509', 'gpg-x509-program')],
    ['gc.auto', '1'],
    ['gpg.ssh.allowedSignersFile', '/dev/null'],
    // Relative to the including file's directory: `.git/evil.cfg`.
    ['include.path', 'evil.cfg'],
  ];
  for (const name of ['evil', 'info', 'a.b']) {
    config.push(
      [`filter.${name}.clean`, touch(`filter-${name}-clean`)],
      [`filter.${name}.smudge`, touch(`filter-${name}-smudge`)],
      [`diff.${name}.textconv`, touch(`diff-${name}-textconv`)],
      [`diff.${name}.command`, touch(`diff-${name}-command`)],
    );
  }
  for (const [key, value] of config) git(['config', '--add', key, value]);

  // The included file adds a process filter for a name only it defines.
  const included: string[] = [
    '[filter "included"]',
    // Exits at once: git then warns and goes on without it.
    `\tprocess = touch ${path.join(workspace.markers, 'filter-included-process')}; exit 0`,
  ];
  if (hookPlace === 'core.hooksPath from an included file') {
    const hooks = path.join(root, 'evil-hooks');
    await mkdir(hooks);
    for (const hook of HOOKS) await program(hooks, hook, `hook-${hook}`);
    included.push('[core]', `\thooksPath = ${hooks}`);
  } else {
    for (const hook of HOOKS) await program(path.join(root, '.git', 'hooks'), hook, `hook-${hook}`);
  }
  await writeFile(path.join(root, '.git', 'evil.cfg'), `${included.join('\n')}\n`);
  await makeStatDirty();
}

// Three commits signed with a (fake) signature of each kind, so that showing a signature would
// have to run the OpenPGP, the SSH and the X.509 program.
async function writeSignedCommits(): Promise<void> {
  const signatures = [
    ['-----BEGIN PGP SIGNATURE-----', 'iQEzBAABCAAdFiEE', '-----END PGP SIGNATURE-----'],
    ['-----BEGIN SSH SIGNATURE-----', 'U1NIU0lHAAAAAQ', '-----END SSH SIGNATURE-----'],
    ['-----BEGIN SIGNED MESSAGE-----', 'MIAGCSqGSIb3', '-----END SIGNED MESSAGE-----'],
  ];
  for (const [index, lines] of signatures.entries()) {
    const tree = git(['rev-parse', 'HEAD^{tree}']).trim();
    const parent = git(['rev-parse', 'HEAD']).trim();
    const who = 'fixture <fixture@example.org> 1700000000 +0000';
    const body = [
      `tree ${tree}`,
      `parent ${parent}`,
      `author ${who}`,
      `committer ${who}`,
      `gpgsig ${lines.join('\n ')}`,
      '',
      `signed ${index}`,
      '',
    ].join('\n');
    const commit = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
      cwd: workspace.root,
      input: body,
      encoding: 'utf8',
    }).trim();
    git(['update-ref', 'HEAD', commit]);
  }
}

// Same size, new content, old mtime: git must read each file through its clean filter to know.
async function makeStatDirty(): Promise<void> {
  for (const file of ['a.txt', 'b.dat', 'c.md', 'd.inc']) {
    await writeFile(path.join(workspace.root, file), 'six\n');
    await utimes(path.join(workspace.root, file), 1_600_000_000, 1_600_000_000);
  }
}

async function markers(): Promise<string[]> {
  return (await readdir(workspace.markers)).sort();
}

async function registry(sandbox: 'off' | 'required') {
  handle = await createNodeToolHost({
    root: workspace.root,
    stateDir: path.join(workspace.base, 'state'),
    runId: 'test-run',
    process: {
      sandbox,
      hostEnv: { PATH: '/usr/bin:/bin', HOME: workspace.home },
      timeoutMs: 20_000,
    },
  });
  return createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
}

function context(overrides: Partial<ToolDispatchContext> = {}): ToolDispatchContext {
  return {
    nodeId: 'test',
    grantedToolIds: new Set(['git_status', 'git_commit', 'run_command']),
    config: { parameters: {} },
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    ...overrides,
  };
}

function output(outcome: ToolDispatchOutcome): { exitCode: number | null; stdout: string } {
  return outcome.output as { exitCode: number | null; stdout: string };
}

describe('fixture: the hostile repository really runs its programs under a plain git', () => {
  it.each<HookPlace>(['git-dir hooks', 'core.hooksPath from an included file'])(
    'with %s',
    async (hookPlace) => {
      await buildHostileRepository(hookPlace);
      // A failing process filter is fatal to the command: it runs once, then is left out so
      // that the rest can run. Only what ran matters here, not how each command ended.
      const withoutProcess = ['-c', 'filter.included.process='];
      for (const args of [
        ['status'],
        [...withoutProcess, 'status'],
        [...withoutProcess, 'log', '-1', '-p'],
        [...withoutProcess, 'diff', 'HEAD~1'],
        [...withoutProcess, 'log', '-3'],
        [...withoutProcess, 'commit', '-m', 'plain', '--', 'a.txt', 'd.inc'],
      ]) {
        try {
          git(args);
        } catch {
          // The fake gpg cannot sign, and a hook may fail: the program still ran.
        }
      }

      expect(await markers()).toEqual(
        expect.arrayContaining([
          'fsmonitor',
          'hook-post-index-change',
          'filter-evil-clean',
          'filter-info-clean',
          'filter-a.b-clean',
          'filter-included-process',
          'diff-evil-command',
          'gpg-openpgp-program',
          'gpg-ssh-program',
          'gpg-x509-program',
          'hook-pre-commit',
        ]),
      );
    },
  );
});

describe.skipIf(process.platform !== 'linux').each<'off' | 'required'>(['off', 'required'])(
  'git_status and git_commit run no program the repository names (sandbox %s)',
  (sandbox) => {
    describe.each<HookPlace>(['git-dir hooks', 'core.hooksPath from an included file'])(
      'with %s',
      (hookPlace) => {
        beforeEach(() => buildHostileRepository(hookPlace));

        it.runIf(hookPlace === 'git-dir hooks')(
          'control: an unguarded git here does run a hook, so "runs nothing" can fail',
          async () => {
            const tools = await registry(sandbox);

            await tools.dispatch(
              { id: 'r', name: 'run_command', args: { command: 'git', args: ['status'] } },
              context({ toolPolicy: { allowedCommands: ['git status'] } }),
            );

            expect(await markers()).toContain('hook-post-index-change');
          },
        );

        it('status reports the change and runs nothing', async () => {
          const tools = await registry(sandbox);

          const outcome = await tools.dispatch(
            { id: 's', name: 'git_status', args: { command: 'status' } },
            context(),
          );

          expect(output(outcome)).toMatchObject({
            exitCode: 0,
            stdout: expect.stringContaining('a.txt'),
          });
          expect(await markers()).toEqual([]);
        });

        it.each([['status'], ['log'], ['diff']] as const)(
          '%s with author flags that show patches and signatures runs nothing',
          async (command) => {
            const tools = await registry(sandbox);
            const args =
              command === 'log'
                ? ['-5', '-p', '--show-signature']
                : command === 'diff'
                  ? ['HEAD~4']
                  : ['-v'];

            const outcome = await tools.dispatch(
              { id: 's', name: 'git_status', args: { command } },
              context({ config: { parameters: { args } } }),
            );

            expect(output(outcome).exitCode).toBe(0);
            if (command === 'log') expect(output(outcome).stdout).toContain('signed 2');
            if (command === 'diff') expect(output(outcome).stdout).toContain('+six');
            expect(await markers()).toEqual([]);
          },
        );

        it('commit commits the listed files and runs nothing', async () => {
          const tools = await registry(sandbox);

          const outcome = await tools.dispatch(
            {
              id: 'c',
              name: 'git_commit',
              args: { message: 'hostile', files: ['a.txt', 'd.inc'] },
            },
            context({ gateApproved: true }),
          );

          expect(output(outcome)).toMatchObject({ exitCode: 0 });
          expect(await markers()).toEqual([]);
          expect(inspect(['log', '-1', '--format=%s'])).toBe('hostile\n');
          expect(inspect(['show', 'HEAD:a.txt'])).toBe('six\n');
          expect(inspect(['show', 'HEAD:d.inc'])).toBe('six\n');
        });
      },
    );
  },
);
