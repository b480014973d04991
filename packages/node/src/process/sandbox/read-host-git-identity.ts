import { resolveHostGit, runHostGit } from './filter-git-config-host-git.js';

/** A commit identity; a part the host does not set (or sets unusably) is absent. */
export interface GitIdentity {
  readonly name?: string;
  readonly email?: string;
}

/**
 * The host user's commit identity (user.name, user.email) from the system + global git config,
 * read with the host's git, once per (HOME, XDG_CONFIG_HOME) — memoised. Never runs a program
 * from the config: `git config` only reads files (includes too, as git always does). Any
 * failure reads as "no identity" (`{}`), and is not memoised.
 */
export function readHostGitIdentity(
  hostEnv: Readonly<Record<string, string | undefined>>,
): Promise<GitIdentity> {
  const home = hostEnv['HOME'];
  const xdgConfigHome = hostEnv['XDG_CONFIG_HOME'];
  const key = JSON.stringify([home ?? null, xdgConfigHome ?? null]);
  const memoised = identities.get(key);
  if (memoised !== undefined) return memoised;
  if (identities.size >= MAX_MEMOISED) identities.clear();
  const identity: Promise<GitIdentity> = readIdentity({ home, xdgConfigHome }).then((found) => {
    // Unsettled (git missing, killed, failing): asked again next time, not remembered as `{}`.
    if (found === undefined && identities.get(key) === identity) identities.delete(key);
    return found ?? {};
  });
  identities.set(key, identity);
  return identity;
}

/**
 * GIT_CONFIG_* env entries that pass the identity to a git inside the sandbox, at indexes from
 * `startIndex` (the count already in use: build-child-env.ts uses 0 and 1, so 2). Returns the
 * entries (with GIT_CONFIG_COUNT when it adds a pair) and the new count. These are command-scope
 * config: they outrank a `user.*` in the repository's own config, as an explicit `-c` would.
 */
export function identityConfigEnv(
  identity: GitIdentity,
  startIndex: number,
): { readonly entries: Readonly<Record<string, string>>; readonly count: number } {
  if (!Number.isSafeInteger(startIndex) || startIndex < 0) {
    throw new TypeError('toolhost: startIndex must be a non-negative integer');
  }
  const entries: Record<string, string> = {};
  let count = startIndex;
  for (const [key, value] of [
    ['user.name', identity.name],
    ['user.email', identity.email],
  ] as const) {
    // Checked again here: an identity may come from elsewhere, and a NUL cannot be in an env.
    if (value === undefined || !isUsableIdentityValue(value)) continue;
    entries[`GIT_CONFIG_KEY_${count}`] = key;
    entries[`GIT_CONFIG_VALUE_${count}`] = value;
    count += 1;
  }
  if (count > startIndex) entries['GIT_CONFIG_COUNT'] = String(count);
  return { entries, count };
}

const identities = new Map<string, Promise<GitIdentity>>();
const MAX_MEMOISED = 64;
const MAX_VALUE_CHARS = 256;

// Undefined when git gave no settled answer.
async function readIdentity({
  home,
  xdgConfigHome,
}: {
  home: string | undefined;
  xdgConfigHome: string | undefined;
}): Promise<GitIdentity | undefined> {
  const gitFile = await resolveHostGit();
  if (gitFile === undefined) return undefined;
  // Only where git looks for the user's files; GIT_CONFIG_NOSYSTEM unset: system config counts.
  const env: Record<string, string> = { PATH: '/usr/bin:/bin' };
  if (home !== undefined) env['HOME'] = home;
  if (xdgConfigHome !== undefined) env['XDG_CONFIG_HOME'] = xdgConfigHome;
  const run = await runHostGit({
    gitFile,
    // `--show-scope`: cwd `/` is no repository, but were it one, its config is not the user's.
    args: [
      'config',
      '--includes',
      '--null',
      '--show-scope',
      '--get-regexp',
      '^user\\.(name|email)$',
    ],
    env,
    timeoutMs: 5000,
    maxOutputBytes: 64 * 1024,
  }).catch(() => undefined);
  // Exit 1 is git's "no such key": a settled answer, memoised like a found one.
  if (run === undefined || !run.ok || (run.exitCode !== 0 && run.exitCode !== 1)) return undefined;
  return run.exitCode === 0 ? parseIdentity(run.stdout) : {};
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

// `--show-scope -z` prints `scope\0key\nvalue\0` per entry; the last value wins, as in git.
function parseIdentity(stdout: Buffer): GitIdentity {
  let text: string;
  try {
    text = utf8.decode(stdout);
  } catch {
    return {};
  }
  const records = text.split('\0');
  const found: { name?: string; email?: string } = {};
  for (let index = 0; index + 1 < records.length; index += 2) {
    const scope = records[index];
    const record = records[index + 1] ?? '';
    if (scope !== 'system' && scope !== 'global') continue;
    const newline = record.indexOf('\n');
    // A bare `name` (boolean true) is no name.
    if (newline === -1) continue;
    const key = record.slice(0, newline);
    const value = record.slice(newline + 1);
    const part = key === 'user.name' ? 'name' : key === 'user.email' ? 'email' : undefined;
    if (part === undefined) continue;
    // An unusable later value still overrides an earlier one on the host: passing the earlier
    // one would sign commits with an identity the user replaced.
    if (isUsableIdentityValue(value)) found[part] = value;
    else delete found[part];
  }
  return found;
}

// Git silently strips a newline from an ident (so it is not what the user wrote), and refuses an
// empty one; the cap keeps a hostile global config from filling every child's environment.
function isUsableIdentityValue(value: string): boolean {
  return (
    value.length > 0 &&
    value.length <= MAX_VALUE_CHARS &&
    !value.includes('\n') &&
    !value.includes('\0')
  );
}
