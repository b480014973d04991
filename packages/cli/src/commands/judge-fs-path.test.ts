import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../config/resolve-settings.js';
import { judgeFsPath } from './judge-fs-path.js';

const settings = resolveSettings('/w/app', { config: {} }, { stateDir: '/home/u/.toolhost/state' });

describe('judgeFsPath', () => {
  it.each([
    ['a parent escape', '../other/x', 'read', 'scope_escape'],
    ['an absolute path outside', '/etc/hosts', 'read', 'scope_escape'],
    ['an ssh key', 'keys/id_ed25519', 'read', 'protected_path'],
    ['a dotenv file', 'config/.env.production', 'read', 'protected_path'],
    ['a git config read', '.git/config', 'read', 'protected_path'],
    ['a git hook write', '.git/hooks/pre-commit', 'write', 'protected_path'],
    ['the config file write', 'toolhost.config.json', 'write', 'protected_path'],
    ['a shell startup write', 'home/.bashrc', 'write', 'protected_path'],
    ['an aliased dotenv spelling', 'config/.ENV. ', 'read', 'protected_path'],
    ['a yarn config write', '.yarnrc.yml', 'write', 'protected_path'],
    ['a state-dir read', '/home/u/.toolhost/state/media/x.bin', 'read', 'scope_escape'],
  ] as const)('refuses %s', (_case, target, operation, rule) => {
    expect(judgeFsPath(target, operation, settings)).toMatchObject({ allowed: false, rule });
  });

  it.each([
    ['a source file read', 'src/a.ts', 'read'],
    ['a git hook read', '.git/HEAD', 'read'],
    ['a public key', '.keys/id_ed25519.pub', 'read'],
    ['an ordinary write', 'notes/todo.md', 'write'],
  ] as const)('allows %s', (_case, target, operation) => {
    expect(judgeFsPath(target, operation, settings).allowed).toBe(true);
  });
});
