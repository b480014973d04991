import { describe, expect, it } from 'vitest';
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
