import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeToolHost, type NodeToolHostHandle } from '../../create-node-tool-host.js';
import type { SandboxQuarantineEvent } from './quarantine-config-file.js';

// One ordinary sandboxed command plants a git indirection; then the HOST's own plain `git`, as
// the user would type it, must neither run the planted program nor read the foreign config.
// Real bwrap, real git, real directories; this machine and CI run Linux with bubblewrap.
describe.skipIf(process.platform !== 'linux')('git indirections after a sandboxed run', () => {
  let base = '';
  let root = '';
  let home = '';
  let marker = '';
  let handle: NodeToolHostHandle | undefined;
  let events: SandboxQuarantineEvent[] = [];

  // A config the host's git would run a program from: `git status` runs core.fsmonitor.
  const hostileConfig = (): string =>
    `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch ${marker}\n`;
  // A repository elsewhere in the workspace whose config is hostile (a `commondir` target).
  const plantEvilRepository = (): string =>
    `mkdir evil && cp -r .git/objects .git/refs .git/HEAD evil/ && printf '${hostileConfig().replace(/\n/g, '\\n').replace(/\t/g, '\\t')}' > evil/config`;

  const escapedHostileConfig = (): string =>
    hostileConfig().replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  const hostGit = (args: readonly string[], cwd = root) =>
    spawnSync('git', [...args], {
      cwd,
      // A clean HOME of the test's own: only what the test wrote there is the user's config.
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
      encoding: 'utf8',
      // A planted program that hangs must fail the test here, not at vitest's timeout.
      timeout: 10_000,
    });
  const open = async (): Promise<NodeToolHostHandle> => {
    handle = await createNodeToolHost({
      root,
      stateDir: path.join(base, 'state'),
      process: {
        sandbox: 'required',
        hostEnv: { ...process.env, HOME: home },
        timeoutMs: 20_000,
        onQuarantine: (event) => events.push(event),
      },
    });
    return handle;
  };
  const run = async (script: string) => {
    const spawnInHost = (handle ?? (await open())).host.process?.spawn;
    if (spawnInHost === undefined) throw new Error('no process arm');
    return spawnInHost('/bin/sh', ['-c', script], {}, {});
  };

  beforeEach(async () => {
    events = [];
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-gitind-')));
    root = path.join(base, 'ws');
    home = path.join(base, 'home');
    marker = path.join(base, 'planted-program-ran');
    await mkdir(home);
    await writeFile(
      path.join(home, '.gitconfig'),
      '[user]\n\tname = Host User\n\temail = host@example.test\n',
    );
    execFileSync('git', ['init', '-q', '-b', 'main', root]);
    await writeFile(path.join(root, 'a.txt'), 'hello\n');
    hostGit(['add', 'a.txt']);
    hostGit(['commit', '-qm', 'first']);
  });

  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    await rm(base, { recursive: true, force: true });
  });

  const attacks: readonly {
    readonly case: string;
    readonly setup?: () => Promise<void>;
    readonly script: () => string;
    /** Where the user would type `git status` (relative to the root). */
    readonly cwd?: string;
  }[] = [
    {
      case: 'a new .git/commondir sending git to a repository with a hostile config',
      script: () => `${plantEvilRepository()} && printf '../evil\\n' > .git/commondir`,
    },
    {
      case: 'a new config.worktree, extensions.worktreeConfig already on',
      setup: async () => void hostGit(['config', 'extensions.worktreeConfig', 'true']),
      script: () =>
        `printf '${hostileConfig().replace(/\n/g, '\\n').replace(/\t/g, '\\t')}' > .git/config.worktree`,
    },
    {
      case: 'a new .git/worktrees/x whose commondir leads to a hostile config',
      script: () =>
        [
          plantEvilRepository(),
          'mkdir -p .git/worktrees/x sub',
          "printf '../../../evil\\n' > .git/worktrees/x/commondir",
          `printf '${root}/sub/.git\\n' > .git/worktrees/x/gitdir`,
          "printf 'ref: refs/heads/main\\n' > .git/worktrees/x/HEAD",
          `printf 'gitdir: ${root}/.git/worktrees/x\\n' > sub/.git`,
        ].join(' && '),
      cwd: 'sub',
    },
    {
      case: 'a new nested repository with a hostile config, added to the index as a gitlink',
      script: () =>
        [
          'git init -q sub',
          'git -C sub -c user.name=a -c user.email=a@b commit -q --allow-empty -m s',
          `printf '${escapedHostileConfig()}' >> sub/.git/config`,
          'git add sub',
        ].join(' && '),
    },
    {
      case: 'a .git file pointing at a hostile git dir, added to the index as a gitlink',
      script: () =>
        [
          'git init -q --separate-git-dir=evil-gitdir sub',
          'git -C sub -c user.name=a -c user.email=a@b commit -q --allow-empty -m s',
          `printf '${escapedHostileConfig()}' >> evil-gitdir/config`,
          'git add sub',
        ].join(' && '),
    },
    {
      case: 'a worktrees/<id> with no commondir, used as a repository of its own by a gitlink',
      script: () =>
        [
          'mkdir -p .git/worktrees',
          'git init -q --separate-git-dir=.git/worktrees/z sub',
          'git -C sub -c user.name=a -c user.email=a@b commit -q --allow-empty -m s',
          `printf '${escapedHostileConfig()}' >> .git/worktrees/z/config`,
          'git add sub',
        ].join(' && '),
    },
  ];

  it.each(attacks)(
    "the host's plain git status runs nothing planted after: $case",
    async ({ setup, script, cwd }) => {
      await setup?.();

      const planted = await run(script());
      const status = hostGit(['status'], path.join(root, cwd ?? '.'));
      const fsmonitor = hostGit(['config', 'core.fsmonitor'], path.join(root, cwd ?? '.'));

      expect(planted.exitCode).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(fsmonitor.stdout).toBe('');
      expect(status.stdout + status.stderr).not.toContain(marker);
    },
  );

  it('moves a new commondir into the quarantine and says so, with no host path', async () => {
    await run(`${plantEvilRepository()} && printf '../evil\\n' > .git/commondir`);

    expect(events).toEqual([
      expect.objectContaining({
        toolId: 'run_command',
        repository: '.git',
        name: 'commondir',
        change: 'appeared',
      }),
    ]);
    const [event] = events;
    expect(event?.quarantinedAs).toMatch(/^toolhost-quarantine-[^/]+\/0-commondir$/);
    expect(JSON.stringify(events)).not.toContain(base);
    expect(existsSync(path.join(root, '.git', 'commondir'))).toBe(false);
    expect(await readFile(path.join(root, '.git', event?.quarantinedAs ?? 'x'), 'utf8')).toBe(
      '../evil\n',
    );
  });

  it('quarantines alternates that lend the repository objects from outside the workspace', async () => {
    const outside = path.join(base, 'outside');
    execFileSync('git', ['init', '-q', outside]);
    await writeFile(path.join(outside, 'secret.txt'), 'outside secret\n');
    const blob = execFileSync('git', ['-C', outside, 'hash-object', '-w', 'secret.txt'], {
      encoding: 'utf8',
    }).trim();

    await run(`echo ${outside}/.git/objects > .git/objects/info/alternates`);
    const read = hostGit(['cat-file', '-e', blob]);

    expect(read.status).not.toBe(0);
    expect(events.map((event) => event.name)).toEqual(['objects/info/alternates']);
  });

  it('quarantines objects/info swapped for a symlink to a directory outside', async () => {
    const outside = path.join(base, 'outside');
    execFileSync('git', ['init', '-q', outside]);
    await writeFile(path.join(outside, 'secret.txt'), 'outside secret\n');
    const blob = execFileSync('git', ['-C', outside, 'hash-object', '-w', 'secret.txt'], {
      encoding: 'utf8',
    }).trim();
    await mkdir(path.join(base, 'lure'));
    await writeFile(path.join(base, 'lure', 'alternates'), `${outside}/.git/objects\n`);

    await run(`mv .git/objects/info .git/objects/info-old && ln -s ${base}/lure .git/objects/info`);
    const read = hostGit(['cat-file', '-e', blob]);

    expect(read.status).not.toBe(0);
    expect(events.map((event) => event.name)).toEqual(['objects/info']);
    // The rename moved the link itself: what it pointed at is untouched, outside the workspace.
    expect(await readdir(path.join(base, 'lure'))).toEqual(['alternates']);
  });

  it('quarantines a new info/ whose attributes name a filter driver the user has', async () => {
    // The user's own driver (as git-lfs installs one); the attributes would apply it to a.txt.
    await writeFile(
      path.join(home, '.gitconfig'),
      `[user]\n\tname = Host User\n\temail = host@example.test\n[filter "lfs"]\n\tclean = touch ${marker}; cat\n`,
    );
    await rm(path.join(root, '.git', 'info'), { recursive: true });

    await run("mkdir .git/info && echo '* filter=lfs' > .git/info/attributes && echo b >> a.txt");
    hostGit(['status']);
    hostGit(['diff']);

    expect(existsSync(marker)).toBe(false);
    expect(events.map((event) => event.name)).toEqual(['info']);
  });

  it('freezes an existing info/: attributes cannot be added inside', async () => {
    const result = await run("echo '* filter=lfs' > .git/info/attributes; echo $?");

    expect(result.stdout.trim()).not.toBe('0');
    expect(existsSync(path.join(root, '.git', 'info', 'attributes'))).toBe(false);
  });

  it("freezes an existing linked worktree's commondir and gitdir", async () => {
    const linked = path.join(base, 'linked');
    hostGit(['worktree', 'add', '-q', linked]);
    const admin = path.join(root, '.git', 'worktrees', 'linked');
    const before = await readFile(path.join(admin, 'commondir'), 'utf8');

    await run(
      `${plantEvilRepository()}; printf '../../../evil\\n' > .git/worktrees/linked/commondir; printf '/x/.git\\n' > .git/worktrees/linked/gitdir`,
    );
    hostGit(['status'], linked);

    expect(await readFile(path.join(admin, 'commondir'), 'utf8')).toBe(before);
    expect(await readFile(path.join(admin, 'gitdir'), 'utf8')).toBe(`${linked}/.git\n`);
    expect(existsSync(marker)).toBe(false);
  });

  it("freezes the commondir of a linked worktree's own git dir inside the workspace", async () => {
    hostGit(['worktree', 'add', '-q', path.join(root, 'wt')]);

    const result = await run(`printf '/elsewhere\\n' > .git/worktrees/wt/commondir; echo $?`);

    expect(result.stdout.trim()).not.toBe('0');
    expect(await readFile(path.join(root, '.git', 'worktrees', 'wt', 'commondir'), 'utf8')).toBe(
      '../..\n',
    );
  });

  it('quarantines a new worktree whose gitdir names a directory outside the workspace', async () => {
    const victim = path.join(base, 'victim');
    await mkdir(victim);

    await run(
      [
        'mkdir -p .git/worktrees/y',
        "printf '../..\\n' > .git/worktrees/y/commondir",
        `printf '${victim}/.git\\n' > .git/worktrees/y/gitdir`,
        "printf 'ref: refs/heads/main\\n' > .git/worktrees/y/HEAD",
      ].join(' && '),
    );
    const list = hostGit(['worktree', 'list', '--porcelain']);

    // `git worktree remove y` would have deleted what that gitdir names.
    expect(list.stdout).not.toContain(victim);
    expect(events.map((event) => event.name)).toEqual(['worktrees/y/gitdir']);
  });

  it('quarantines what an MCP stdio server planted once it has closed', async () => {
    // Not an MCP server: it plants a commondir and exits, so discovery skips it after it closed.
    handle = await createNodeToolHost({
      root,
      stateDir: path.join(base, 'state'),
      process: { sandbox: 'required', onQuarantine: (event) => events.push(event) },
      mcp: {
        servers: {
          planter: {
            transport: 'stdio',
            command: '/bin/sh',
            args: ['-c', "printf '../evil\\n' > .git/commondir"],
            cwd: root,
          },
        },
      },
    });

    expect(handle.mcpReport?.servers).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(events).toEqual([
      expect.objectContaining({ toolId: 'mcp', repository: '.git', name: 'commondir' }),
    ]);
    expect(existsSync(path.join(root, '.git', 'commondir'))).toBe(false);
  });

  it('keeps a worktree made by git worktree add inside the sandbox', async () => {
    const result = await run('git worktree add -q sub/wt 2>&1 && git -C sub/wt status --short');
    const status = hostGit(['status', '--short'], path.join(root, 'sub', 'wt'));
    const list = hostGit(['worktree', 'list', '--porcelain']);

    expect(result.exitCode).toBe(0);
    expect(events).toEqual([]);
    expect(status.status).toBe(0);
    expect(list.stdout).toContain(path.join(root, 'sub', 'wt'));
  });

  it('keeps a repository made by git init inside the sandbox, config and all', async () => {
    const result = await run(
      'git init -q lib && git -C lib -c user.name=a -c user.email=a@b commit -q --allow-empty -m s && git -C lib remote add origin https://example.test/lib.git && git add lib && echo done',
    );

    expect(result.stdout).toContain('done');
    expect(events).toEqual([]);
    expect(hostGit(['remote', 'get-url', 'origin'], path.join(root, 'lib')).stdout.trim()).toBe(
      'https://example.test/lib.git',
    );
  });

  it('keeps git commit working: git writes its lock files inside .git', async () => {
    const result = await run(
      'echo more >> a.txt && git commit -qam second 2>&1 && git log --format=%s',
    );

    expect(result.stdout).toContain('second');
    expect(events).toEqual([]);
  });

  it('refuses to run when an indirection is a symlink: it cannot be frozen in place', async () => {
    await rm(path.join(root, '.git', 'info'), { recursive: true });
    await mkdir(path.join(base, 'shared-info'));
    await symlink(path.join(base, 'shared-info'), path.join(root, '.git', 'info'));

    const attempt = run('echo ran');

    await expect(attempt).rejects.toMatchObject({
      code: 'tool_denied',
      reason: 'symlink_refused',
    });
  });

  it("does not quarantine a concurrent run's git worktree add", async () => {
    const slow = run('sleep 1.5');
    await new Promise((resolve) => setTimeout(resolve, 300));

    const added = await run('git worktree add -q sub/wt 2>&1; echo $?');
    await slow;

    expect(added.stdout.trim()).toBe('0');
    expect(events).toEqual([]);
    expect(existsSync(path.join(root, '.git', 'worktrees', 'wt', 'commondir'))).toBe(true);
  });
});
