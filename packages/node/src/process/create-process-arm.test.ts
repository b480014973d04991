import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, createToolRegistry } from '@toolhost/core';
import type { ToolDispatchContext, ToolPolicy } from '@toolhost/core';
import { createProcessArm, type ProcessArm } from './create-process-arm.js';

interface CommandCase {
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly allowlist: readonly string[];
  readonly expect: 'deny' | 'allow';
  readonly env?: Readonly<Record<string, string>>;
}

const corpus = JSON.parse(
  readFileSync(new URL('../../../../test/corpus/commands.json', import.meta.url), 'utf8'),
) as CommandCase[];

const SECRET_NAME = 'TOOLHOST_TEST_AMBIENT_SECRET';

let sandbox = '';
let root = '';
let arm: ProcessArm;

beforeAll(async () => {
  sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-process-')));
  root = path.join(sandbox, 'app');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(path.join(sandbox, 'outside'));
  await writeFile(path.join(root, 'src', 'a.txt'), 'a\n');
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
      cwd: root,
      stdio: 'ignore',
    });
  };
  git('init', '-q');
  git('add', 'src');
  git('commit', '-q', '-m', 'initial');
  // A repository whose own config names a pager: it must never run and never hang the call.
  git('config', 'user.name', 'fixture');
  git('config', 'user.email', 'fixture@example.org');
  git('config', 'core.pager', `touch ${path.join(sandbox, 'pager-ran')}; sleep 100`);
  await writeFile(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'fixture', private: true, scripts: { build: 'echo built' } }),
  );
  process.env[SECRET_NAME] = 'ambient-secret-value';
  arm = createProcessArm({ root, timeoutMs: 20_000 });
  delete process.env[SECRET_NAME];
});

afterAll(() => rm(sandbox, { recursive: true, force: true }));

function registry() {
  return createToolRegistry({ tools: BUILTIN_TOOLS, host: { process: arm } });
}

function context(
  toolPolicy: ToolPolicy,
  parameters: Record<string, unknown> = {},
): ToolDispatchContext {
  return {
    nodeId: 'test',
    grantedToolIds: new Set(['run_command', 'git_status']),
    config: { parameters },
    toolPolicy,
    fsScope: 'sandboxed',
    gateApproved: false,
  };
}

function runCommand(
  command: string,
  args: readonly string[],
  policy: ToolPolicy,
  env?: Record<string, string>,
) {
  return registry().dispatch(
    { id: 'call', name: 'run_command', args: { command, args } },
    context(policy, env === undefined ? {} : { env }),
  );
}

describe('run_command on the commands corpus, end to end', () => {
  const pwnedBefore = existsSync('/tmp/pwned');

  it.each(corpus.map((entry) => [entry.id, entry] as const))('%s', async (_id, entry) => {
    // Every payload writes into this run's sandbox instead of the shared /tmp/pwned.
    const marker = path.join(sandbox, `pwned-${entry.id}`);
    const args = entry.args.map((arg) => arg.replaceAll('/tmp/pwned', marker));
    const policy: ToolPolicy = {
      allowedCommands: [...entry.allowlist],
      allowedCommandGlobs: entry.allowlist.map((binary) => `${binary} *`),
    };

    const attempt = runCommand(entry.command, args, policy, entry.env);

    if (entry.expect === 'deny') {
      await expect(attempt).rejects.toMatchObject({ code: 'tool_denied' });
    } else {
      await expect(attempt).resolves.toBeDefined();
    }
    expect(existsSync(marker)).toBe(false);
    if (!pwnedBefore) expect(existsSync('/tmp/pwned')).toBe(false);
  });
});

describe('allowlist semantics through the registry', () => {
  it('runs an exact entry', async () => {
    const outcome = await runCommand('git', ['status', '--porcelain'], {
      allowedCommands: ['git status --porcelain'],
    });

    expect(outcome.output).toMatchObject({ exitCode: 0 });
  });

  it.each([
    ['an added option', 'git', ['status', '--output=/tmp/x']],
    ['a global -c', 'git', ['-c', 'core.pager=sh', 'status']],
    ['a longer binary name', 'gitleaks', []],
    ['a doubled space', 'git', ['', 'status']],
  ])('does not stretch `git status` to %s', async (_case, command, args) => {
    const attempt = runCommand(command, args, { allowedCommands: ['git status'] });

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_allowed' });
  });

  it('lets `npm run *` run a package script', async () => {
    const outcome = await runCommand('npm', ['run', 'build'], {
      allowedCommandGlobs: ['npm run *'],
    });

    expect(outcome.output).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('built') });
  }, 30_000);

  it.each([
    ['a script shell', ['run', 'build', '--script-shell=/tmp/evil.sh']],
    ['a prefix', ['run', 'build', '--prefix', '/tmp/evil']],
    ['another subcommand', ['exec', 'evil']],
  ])('does not let `npm run *` through with %s', async (_case, args) => {
    const attempt = runCommand('npm', args, { allowedCommandGlobs: ['npm run *'] });

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_allowed' });
  });

  it('denies everything with an empty allowlist', async () => {
    const attempt = runCommand('true', [], { allowedCommands: [], allowedCommandGlobs: [] });

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_allowed' });
  });
});

describe('the environment floor', () => {
  it.each(['LD_PRELOAD', 'NODE_OPTIONS', 'GIT_SSH_COMMAND', 'PATH', 'BASH_ENV'])(
    'refuses a declared %s, fatally, before anything runs',
    async (name) => {
      const marker = path.join(sandbox, `env-${name}`);

      const attempt = runCommand(
        'touch',
        [marker],
        { allowedCommandGlobs: ['touch *'] },
        { [name]: 'x' },
      );

      await expect(attempt).rejects.toMatchObject({
        reason: 'env_not_allowed',
        recoverable: false,
      });
      expect(existsSync(marker)).toBe(false);
    },
  );

  it('gives the child the base list and the declared variables, never an ambient secret', async () => {
    const outcome = await runCommand(
      'env',
      [],
      { allowedCommands: ['env'] },
      { FIXTURE_FLAG: 'on' },
    );

    const stdout = (outcome.output as { stdout: string }).stdout;
    expect(stdout).not.toContain(SECRET_NAME);
    expect(stdout).not.toContain('ambient-secret-value');
    expect(stdout).toContain('FIXTURE_FLAG=on');
    expect(stdout).toContain('GIT_PAGER=cat');
    expect(stdout).toContain('GIT_TERMINAL_PROMPT=0');
    const names = stdout
      .split('\n')
      .map((line) => line.split('=')[0] ?? '')
      .filter((name) => name !== '');
    const allowed = [
      'PATH',
      'HOME',
      'LANG',
      'LC_ALL',
      'LC_CTYPE',
      'TZ',
      'TMPDIR',
      'TERM',
      'PAGER',
      'GIT_PAGER',
      'GIT_TERMINAL_PROMPT',
      'GIT_CONFIG_COUNT',
      'GIT_CONFIG_KEY_0',
      'GIT_CONFIG_VALUE_0',
      'GIT_CONFIG_KEY_1',
      'GIT_CONFIG_VALUE_1',
      // Inside the sandbox: the host user's commit identity (user.name, user.email), if set.
      'GIT_CONFIG_KEY_2',
      'GIT_CONFIG_VALUE_2',
      'GIT_CONFIG_KEY_3',
      'GIT_CONFIG_VALUE_3',
      'FIXTURE_FLAG',
      'PWD',
    ];
    expect(names.filter((name) => !allowed.includes(name))).toEqual([]);
  });
});

describe('git through the arm', () => {
  it('runs `git log` without paging, even when the repository names a pager', async () => {
    const started = Date.now();

    const outcome = await registry().dispatch(
      { id: 'c', name: 'git_status', args: { command: 'log' } },
      context({}),
    );

    expect(outcome.output).toMatchObject({
      exitCode: 0,
      stdout: expect.stringContaining('initial'),
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(existsSync(path.join(sandbox, 'pager-ran'))).toBe(false);
  });

  it('commits through git_commit with the message as data', async () => {
    await writeFile(path.join(root, 'src', 'a.txt'), 'changed\n');
    const message = '--amend --exec=touch x';

    const outcome = await registry().dispatch(
      { id: 'c', name: 'git_commit', args: { message, files: ['src/a.txt'] } },
      { ...context({}), grantedToolIds: new Set(['git_commit']), gateApproved: true },
    );

    expect(outcome.output).toMatchObject({ exitCode: 0 });
    const subject = execFileSync('git', ['log', '-1', '--format=%s'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(subject).toBe(`${message}\n`);
  });

  it('never runs a repository-configured fsmonitor program, even for an exact `git status`', async () => {
    const nested = path.join(root, 'nested');
    await mkdir(nested);
    execFileSync('git', ['init', '-q'], { cwd: nested, stdio: 'ignore' });
    const marker = path.join(sandbox, 'fsmonitor-ran');
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${marker}; false`], {
      cwd: nested,
      stdio: 'ignore',
    });

    const outcome = await registry().dispatch(
      { id: 'call', name: 'run_command', args: { command: 'git', args: ['status'] } },
      context({ allowedCommands: ['git status'] }, { cwd: 'nested' }),
    );

    expect(outcome.output).toMatchObject({ exitCode: 0 });
    expect(existsSync(marker)).toBe(false);
  });

  it('does not page under `git -p` either', async () => {
    const outcome = await runCommand('git', ['-p', 'log', '--oneline'], {
      allowedCommandGlobs: ['git *'],
    });

    expect(outcome.output).toMatchObject({ exitCode: 0 });
    expect(existsSync(path.join(sandbox, 'pager-ran'))).toBe(false);
  });
});

describe('executable and cwd resolution', () => {
  it('refuses a command that is not on PATH', async () => {
    const attempt = arm.spawn('toolhost-no-such-binary', [], {}, {});

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_found' });
  });

  it('never looks in the cwd for a bare name', async () => {
    await writeFile(path.join(root, 'planted'), '#!/bin/sh\necho planted\n');
    await chmod(path.join(root, 'planted'), 0o755);

    const attempt = arm.spawn('planted', [], {}, {});

    await expect(attempt).rejects.toMatchObject({ reason: 'command_not_found' });
  });

  it('runs a relative path inside the root, from the jailed cwd', async () => {
    await writeFile(path.join(root, 'src', 'tool.sh'), '#!/bin/sh\npwd\n');
    await chmod(path.join(root, 'src', 'tool.sh'), 0o755);

    const result = await arm.spawn('./tool.sh', [], {}, { cwd: 'src' });

    expect(result).toMatchObject({ exitCode: 0, stdout: `${path.join(root, 'src')}\n` });
  });

  it('refuses a relative path that leaves the root', async () => {
    await writeFile(path.join(sandbox, 'outside', 'x.sh'), '#!/bin/sh\n');
    await chmod(path.join(sandbox, 'outside', 'x.sh'), 0o755);

    const attempt = arm.spawn('../outside/x.sh', [], {}, {});

    await expect(attempt).rejects.toMatchObject({ reason: 'scope_escape' });
  });

  it('uses an absolute path as given', async () => {
    const result = await arm.spawn('/bin/sh', ['-c', 'echo ok'], {}, {});

    expect(result.stdout).toBe('ok\n');
  });

  it.each([
    ['parent traversal', '../outside'],
    ['absolute path', '/etc'],
    ['prefix collision', '../app-evil'],
  ])('refuses a cwd by %s as a fatal scope escape', async (_case, cwd) => {
    await mkdir(path.join(sandbox, 'app-evil'), { recursive: true });

    const attempt = arm.spawn('pwd', [], {}, { cwd });

    await expect(attempt).rejects.toMatchObject({ reason: 'scope_escape', recoverable: false });
  });

  it('refuses a cwd through a symlink out of the root', async () => {
    await symlink(path.join(sandbox, 'outside'), path.join(root, 'link-out'));

    const attempt = arm.spawn('pwd', [], {}, { cwd: 'link-out' });

    await expect(attempt).rejects.toMatchObject({ reason: 'scope_escape' });
  });

  it('refuses an argument carrying NUL', async () => {
    const attempt = arm.spawn('echo', ['a\0b'], {}, {});

    await expect(attempt).rejects.toMatchObject({ code: 'tool_denied' });
  });
});
