import { describe, expect, it } from 'vitest';
import { buildSandboxArgs, initBindPath, type SandboxArgsInput } from './build-sandbox-args.js';

const input: SandboxArgsInput = {
  tier: 'sandboxed',
  writableRoots: ['/w/app'],
  readOnlyPaths: [],
  readWritePaths: [],
  executablePrefixes: ['/home/u/.nvm/versions/node/v22'],
  home: '/home/u',
  homeSecrets: [{ path: '/home/u/.ssh', kind: 'directory' }],
  system: {
    links: [{ path: '/bin', target: 'usr/bin' }],
    directories: [],
    etcMasks: [{ path: '/etc/shadow', kind: 'file' }],
  },
  scans: [
    {
      masked: [
        { path: '/w/app/.env', kind: 'file' },
        { path: '/w/app/.git/credentials', kind: 'file' },
      ],
      readOnly: [],
      gitDirs: [],
    },
  ],
  repositories: [
    {
      gitDir: { fd: 5, path: '/w/app/.git' },
      filteredConfig: '/s/git/abc.config',
      frozen: [{ fd: 6, path: '/w/app/.git/hooks' }],
    },
  ],
  frozenFiles: [{ fd: 4, path: '/w/app/.bashrc' }],
  hidden: ['/s'],
  emptyFile: '/s/masks/empty',
  cwd: '/w/app',
  env: { PATH: '/usr/bin' },
  seccompFd: 3,
  limits: ['/usr/bin/prlimit', '--nofile=64', '--'],
  command: ['/usr/bin/git', 'status'],
};

const indexOf = (args: string[], ...sequence: string[]): number =>
  args.findIndex((_, index) => sequence.every((part, offset) => args[index + offset] === part));

describe('buildSandboxArgs', () => {
  it('drops every privilege and namespace first, and never binds /', () => {
    const args = buildSandboxArgs(input);
    expect(args.slice(0, 6)).toEqual([
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--cap-drop',
      'ALL',
      '--new-session',
    ]);
    expect(args).toContain('--die-with-parent');
    expect(args).toContain('--clearenv');
    expect(indexOf(args, '--ro-bind', '/', '/')).toBe(-1);
    expect(indexOf(args, '--bind', '/', '/')).toBe(-1);
    expect(args).not.toContain('--share-net');
  });

  it('builds from wide to narrow: home tmpfs, prefix, root, then masks and freezes inside', () => {
    const args = buildSandboxArgs(input);
    const home = indexOf(args, '--tmpfs', '/home/u');
    const prefix = indexOf(args, '--ro-bind', input.executablePrefixes[0]!);
    const root = indexOf(args, '--bind', '/w/app', '/w/app');
    const env = indexOf(args, '--ro-bind', '/s/masks/empty', '/w/app/.env');
    // Workspace paths are bound from the descriptors the host pinned, never by their text.
    const bashrc = indexOf(args, '--ro-bind-fd', '4', '/w/app/.bashrc');
    const gitDir = indexOf(args, '--bind-fd', '5', '/w/app/.git');
    const hooks = indexOf(args, '--ro-bind-fd', '6', '/w/app/.git/hooks');
    const config = indexOf(args, '--ro-bind', '/s/git/abc.config', '/w/app/.git/config');
    expect([home, prefix, root, env, bashrc, gitDir, hooks, config].every((at) => at >= 0)).toBe(
      true,
    );
    expect(home).toBeLessThan(prefix);
    expect(prefix).toBeLessThan(root);
    expect(root).toBeLessThan(env);
    expect(root).toBeLessThan(bashrc);
    expect(gitDir).toBeLessThan(hooks);
    expect(gitDir).toBeLessThan(config);
    // A git dir's self-bind would uncover an earlier mask inside it: masks come after.
    expect(gitDir).toBeLessThan(
      indexOf(args, '--ro-bind', '/s/masks/empty', '/w/app/.git/credentials'),
    );
    // The shadow file reads as empty; the state directory is an empty tmpfs.
    expect(indexOf(args, '--ro-bind', '/s/masks/empty', '/etc/shadow')).toBeGreaterThan(0);
    expect(indexOf(args, '--tmpfs', '/s')).toBeGreaterThan(root);
  });

  it('masks a home credential store only where part of the home is shown', () => {
    const hidden = buildSandboxArgs(input);
    expect(indexOf(hidden, '--tmpfs', '/home/u/.ssh')).toBe(-1);
    const shown = buildSandboxArgs({ ...input, readOnlyPaths: ['/home/u'] });
    expect(indexOf(shown, '--tmpfs', '/home/u/.ssh')).toBeGreaterThan(0);
    const full = buildSandboxArgs({ ...input, tier: 'full' });
    expect(indexOf(full, '--ro-bind', '/', '/')).toBeGreaterThan(0);
    expect(indexOf(full, '--tmpfs', '/home/u')).toBe(-1);
    expect(indexOf(full, '--tmpfs', '/home/u/.ssh')).toBeGreaterThan(0);
    expect(indexOf(full, '--tmpfs', '/run')).toBeGreaterThan(0);
  });

  it('ends with the filter, the working directory, the limits and the command', () => {
    const args = buildSandboxArgs(input);
    expect(args.slice(-10)).toEqual([
      '--seccomp',
      '3',
      '--chdir',
      '/w/app',
      '--',
      '/usr/bin/prlimit',
      '--nofile=64',
      '--',
      '/usr/bin/git',
      'status',
    ]);
  });

  it('runs the network init first when a network allowance is given', () => {
    const args = buildSandboxArgs({
      ...input,
      networkInit: { bindPath: '/.toolhost/net-init', hostPath: '/pkg/init', fd: 4, port: 3128 },
    });
    const separator = args.indexOf('--');
    expect(args.slice(separator, separator + 5)).toEqual([
      '--',
      '/.toolhost/net-init',
      '4',
      '3128',
      '--',
    ]);
    expect(indexOf(args, '--ro-bind', '/pkg/init', '/.toolhost/net-init')).toBeGreaterThan(0);
  });

  it('runs the waiting init before the network init, prlimit and the command', () => {
    const args = buildSandboxArgs({
      ...input,
      waitInit: { bindPath: '/.toolhost/wait-init', hostPath: '/pkg/wait', fd: 5 },
      networkInit: { bindPath: '/.toolhost/net-init', hostPath: '/pkg/init', fd: 4, port: 3128 },
    });

    const separator = args.indexOf('--');
    expect(args.slice(separator)).toEqual([
      '--',
      '/.toolhost/wait-init',
      '5',
      '--',
      '/.toolhost/net-init',
      '4',
      '3128',
      '--',
      '/usr/bin/prlimit',
      '--nofile=64',
      '--',
      '/usr/bin/git',
      'status',
    ]);
    expect(indexOf(args, '--ro-bind', '/pkg/wait', '/.toolhost/wait-init')).toBeLessThan(separator);
  });

  it.each([
    ['sandboxed', '/.toolhost/wait-init'],
    ['project', '/.toolhost/wait-init'],
    ['full', '/run/.toolhost/wait-init'],
  ] as const)(
    'shows the inits of the %s tier where bwrap can make a mount point',
    (tier, where) => {
      expect(initBindPath(tier, 'wait-init')).toBe(where);
    },
  );
});
