import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_STORES,
  foldSegment,
  isFoldedOnReadFloor,
  isFoldedOnWriteFloor,
  isOnReadFloor,
  isOnWriteFloor,
} from './floor.js';

const CONTEXT = {
  stateDir: '/home/u/.toolhost/state',
  spillDir: '/home/u/.toolhost/state/spill/run-1',
  configFile: '/w/app/toolhost.config.json',
  homeDir: '/home/u',
};

describe('the read floor', () => {
  it.each([
    ['/w/app/.env', true],
    ['/w/app/config/.env.production', true],
    ['/w/app/.aws/credentials', true],
    ['/w/app/.gnupg/pubring.kbx', true],
    ['/w/app/.docker/config.json', true],
    ['/w/app/.git/config', true],
    ['/home/u/.config/git/credentials', true],
    ['/w/app/deploy/id_ed25519', true],
    ['/w/app/.npmrc', true],
    ['/home/u/.toolhost/state/media/abc.bin', true],
    ['/home/u/.toolhost/state/spill/other-run/1.txt', true],
    ['/proc/self/environ', true],
    ['/home/u/.toolhost/state/spill/run-1/000001.txt', false],
    ['/w/app/deploy/id_ed25519.pub', false],
    ['/w/app/.git/HEAD', false],
    ['/w/app/docs/env.md', false],
    ['/w/app/.environment/x', false],
    ['/w/app/docker/config.json', false],
  ])('%s → %s', (target, floored) => {
    expect(isOnReadFloor(target, CONTEXT)).toBe(floored);
  });
});

describe('the write floor', () => {
  it.each([
    ['/w/app/.git/hooks/pre-commit', true],
    ['/w/app/.bashrc', true],
    ['/home/u/.config/fish/config.fish', true],
    ['/w/app/.gitconfig', true],
    ['/w/app/toolhost.config.json', true],
    ['/w/app/TOOLHOST.CONFIG.JSON', true],
    ['/home/u/.toolhost/state/spill/run-1/000001.txt', true],
    ['/w/app/.env', true],
    ['/w/app/.npmrc', true],
    ['/w/app/.yarnrc.yml', true],
    ['/w/app/.pnpmfile.cjs', true],
    ['/w/app/src/toolhost.config.json', false],
    ['/w/app/.github/workflows/ci.yml', false],
    ['/w/app/docs/bashrc-example.txt', false],
  ])('%s → %s', (target, floored) => {
    expect(isOnWriteFloor(target, CONTEXT)).toBe(floored);
  });
});

// The gaps a hostile model probed, both floors in one table: [path, read floor, write floor].
describe('the floors on credential stores, startup files and system paths', () => {
  it.each([
    // A submodule's (or worktree's) repository config holds its remote URL, token and all.
    ['/w/app/.git/modules/lib/config', true, true],
    ['/w/app/.git/modules/lib/modules/inner/config', true, true],
    ['/w/app/.git/worktrees/wt/config.worktree', true, true],
    ['/w/app/.git/modules/lib/HEAD', false, true],
    ['/w/app/.git/refs/heads/config', false, true],
    ['/w/app/docs/modules/lib/config', false, false],
    // Yarn keeps npmAuthToken in its rc files.
    ['/w/app/.yarnrc.yml', true, true],
    ['/w/app/.yarnrc', true, true],
    ['/w/app/yarnrc.yml', false, false],
    // Credential stores in a home (the full tier can name them)...
    ['/home/u/.config/gh/hosts.yml', true, true],
    ['/home/u/.config/gcloud/credentials.db', true, true],
    ['/home/u/.kube/config', true, true],
    ['/home/u/.kube/cache/discovery/x.json', true, true],
    ['/home/u/.cargo/credentials.toml', true, true],
    ['/home/u/.cargo/credentials', true, true],
    ['/home/u/.docker/config.json', true, true],
    ['/home/u/.docker/key.pem', true, true],
    ['/home/u/.azure/msal_token_cache.json', true, true],
    ['/home/u/.vault-token', true, true],
    ['/home/u/.my.cnf', true, true],
    ['/home/u/.bash_history', true, true],
    ['/home/u/.zsh_history', true, true],
    ['/home/u/.local/share/fish/fish_history', true, true],
    ['/home/u/.local/share/keyrings/login.keyring', true, true],
    ['/home/u/.config/git/config', true, true],
    // ...and the same names in a workspace: the secret file, not the whole project directory.
    ['/w/app/.kube/config', true, true],
    ['/w/app/.docker/config.json', true, true],
    ['/w/app/.kube/deployment.yaml', false, false],
    ['/w/app/.docker/compose.yml', false, false],
    ['/w/app/.cargo/config.toml', false, false],
    ['/home/u/.cargo/config.toml', false, false],
    ['/home/u/.config/ghostty/config', false, false],
    ['/w/app/docs/bash_history.md', false, false],
    // Git's XDG config and the aliases file every .bashrc sources run code when planted.
    ['/home/u/.config/git/attributes', false, true],
    ['/home/u/.config/git/ignore', false, true],
    ['/home/u/.config/fish/conf.d/x.fish', false, true],
    ['/home/u/.bash_aliases', false, true],
    ['/home/u/.config/gitui/theme.ron', false, false],
    ['/w/app/docs/bash_aliases', false, false],
    // System paths only root could write: a write there is a host takeover.
    ['/etc/cron.d/job', false, true],
    ['/ETC/sudoers', false, true],
    ['/proc/sys/kernel/core_pattern', false, true],
    ['/proc/sysrq-trigger', false, true],
    ['/sys/kernel/mm/transparent_hugepage/enabled', false, true],
    ['/w/app/etc/app.conf', false, false],
    ['etc/app.conf', false, false],
    ['/w/app/sys/x', false, false],
    ['/proc/self/status', false, false],
    ['/etcetera/x', false, false],
  ])('%s → read %s, write %s', (target, read, write) => {
    expect(isOnReadFloor(target, CONTEXT)).toBe(read);
    expect(isOnWriteFloor(target, CONTEXT)).toBe(write);
  });

  it('floors every credential store of the table by name and at its place in the home', () => {
    for (const store of CREDENTIAL_STORES) {
      const named = `/w/app/sub/${store.name}`;
      const inside = store.match === 'tree' ? `${named}/x` : named;
      expect([inside, isOnReadFloor(inside, CONTEXT)]).toEqual([inside, true]);
      expect([inside, isOnWriteFloor(inside, CONTEXT)]).toEqual([inside, true]);
      if (store.home !== undefined) {
        const home = `/home/u/${store.home}`;
        expect([home, isOnReadFloor(home, CONTEXT)]).toEqual([home, true]);
        expect([home, isOnWriteFloor(`${home}/x`, CONTEXT)]).toEqual([home, true]);
      }
    }
  });

  it('judges folded segments as the sandbox scan passes them', () => {
    expect(isFoldedOnReadFloor(['home', 'u', '.kube', 'config'], CONTEXT)).toBe(true);
    expect(isFoldedOnWriteFloor(['etc', 'passwd'], CONTEXT)).toBe(true);
    expect(isFoldedOnWriteFloor(['w', 'app', 'etc', 'passwd'], CONTEXT)).toBe(false);
  });
});

describe('foldSegment', () => {
  it('folds every aliasing spelling of a floor name onto it', () => {
    const spelling = fc.record({
      name: fc.constantFrom('.env', '.ssh', '.git', '.npmrc', 'id_rsa'),
      upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      trailing: fc.stringMatching(/^[. ]{0,3}$/),
      stream: fc.constantFrom('', ':', '::$DATA', ':zone.identifier'),
    });

    fc.assert(
      fc.property(spelling, ({ name, upper, trailing, stream }) => {
        const cased = [...name]
          .map((char, index) => (upper[index] ? char.toUpperCase() : char))
          .join('');

        expect(foldSegment(`${cased}${trailing}${stream}`)).toBe(name);
      }),
    );
  });

  it.each([
    ['fullwidth letters', '.\uff45\uff4e\uff56', '.env'],
    ['a zero-width non-joiner', '.g\u200cit', '.git'],
    ['the NTFS short name', 'GIT~1', '.git'],
    ['a Cyrillic look-alike stays distinct', '.\u0435nv', '.\u0435nv'],
  ])('%s', (_label, segment, folded) => {
    expect(foldSegment(segment)).toBe(folded);
  });
});
