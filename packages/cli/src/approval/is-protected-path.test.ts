import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProtectedPath } from './is-protected-path.js';

const context = {
  root: '/w/app',
  configFile: '/w/app/toolhost.config.json',
  stateDir: '/home/u/.local/state/toolhost',
  files: ['/w/app/logs/audit.jsonl'],
};

describe('isProtectedPath', () => {
  it.each([
    ['a parent escape', '../app-evil/x'],
    ['an absolute path outside', '/etc/passwd'],
    ['the root itself', '.'],
    ['the config file', 'toolhost.config.json'],
    ['the config file by absolute path', '/w/app/toolhost.config.json'],
    ['a git hook', '.git/hooks/pre-commit'],
    ['a case-folded git dir', '.GIT/config'],
    ['a trailing-dot git dir', '.git./config'],
    ['a CI workflow', '.github/workflows/ci.yml'],
    ['a shell startup file', 'sub/.bashrc'],
    ['an env file', '.env.local'],
    ['a NUL byte', 'a\0b'],
    ['the audit log', 'logs/audit.jsonl'],
  ])('protects %s', (_case, target) => {
    expect(isProtectedPath(target, context)).toBe(true);
  });

  it.each([
    ['a source file', 'src/index.ts'],
    ['an absolute path inside', '/w/app/notes/todo.md'],
    ['a dotfile that is not special', '.prettierrc.json'],
    ['a name containing git', 'docs/github-guide.md'],
  ])('does not protect %s', (_case, target) => {
    expect(isProtectedPath(target, context)).toBe(false);
  });
});

describe('isProtectedPath through symlinked directories (a real checkout)', () => {
  let base = '';
  let real: { root: string; configFile: string; stateDir: string };
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-protected-')));
    const root = path.join(base, 'app');
    await mkdir(path.join(root, '.github', 'workflows'), { recursive: true });
    await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
    await mkdir(path.join(root, 'settings'));
    await mkdir(path.join(root, 'src'));
    await mkdir(path.join(base, 'state'));
    await writeFile(path.join(root, 'settings', 'agent.json'), '{}');
    // Innocent names a checkout may ship, each aliasing a protected place.
    await symlink('.github', path.join(root, 'ci'));
    await symlink('.git', path.join(root, 'vcs'));
    await symlink('settings', path.join(root, 'conf'));
    await symlink(path.join(base, 'state'), path.join(root, 'cache'));
    await symlink('src', path.join(root, 'code'));
    real = {
      root,
      configFile: path.join(root, 'settings', 'agent.json'),
      stateDir: path.join(base, 'state'),
    };
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it.each([
    ['a workflow through ci -> .github', 'ci/workflows/deploy.yml'],
    ['a hook through vcs -> .git', 'vcs/hooks/pre-commit'],
    ['a custom config file through conf -> settings', 'conf/agent.json'],
    ['the state dir through cache -> state', 'cache/spill/x.txt'],
    ['a new directory under an alias', 'ci/new/deeper/file.yml'],
  ])('protects %s', (_case, target) => {
    expect(isProtectedPath(target, real)).toBe(true);
  });

  it.each([
    ['a source file through code -> src', 'code/index.ts'],
    ['a new file in a plain directory', 'src/new/file.ts'],
  ])('does not protect %s', (_case, target) => {
    expect(isProtectedPath(target, real)).toBe(false);
  });
});
