import path from 'node:path';
import { ToolExecutionError } from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';
import { runHostGit } from './sandbox/filter-git-config-host-git.js';

/** One git child about to start: the executable, its jailed cwd and its built env. */
export interface GitDriverRequest {
  readonly toolId: string;
  readonly file: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly signal?: AbortSignalLike | undefined;
}

/**
 * The env of a git child with every driver its config names emptied, at command-line strength.
 * A driver is a program keyed by a name the repository picks (`filter.<name>.clean`, run by
 * `status` on any file whose `.gitattributes` or `.git/info/attributes` says `filter=<name>`), so
 * no static flag reaches it: the names are read here, with the same git, cwd and env the child
 * gets, by `git config --list --name-only`, which parses config (includes too) and runs nothing.
 * Every scope is read (a global `filter.lfs` is emptied too): the attribute that selects a driver
 * is the repository's even when the driver is the user's. Entries go after the env's own
 * `GIT_CONFIG_*` ones and `GIT_CONFIG_COUNT` grows to match, so a later appender (the sandbox's
 * identity) still counts from the end. A non-git child gets its env back unchanged; a config git
 * cannot list fails the call, because the child would read it too. Only a git that rewrites its
 * own config between this listing and its start escapes: that takes a concurrent process that
 * could run the program itself.
 */
export async function neutraliseGitDrivers(
  request: GitDriverRequest,
): Promise<Readonly<Record<string, string>>> {
  const { toolId, file, cwd, env } = request;
  if (path.basename(file) !== 'git') return env;
  const run = await runHostGit({
    gitFile: file,
    args: ['-C', cwd, 'config', '--list', '--name-only', '-z'],
    env,
    timeoutMs: TIMEOUT_MS,
    maxOutputBytes: MAX_LISTING_BYTES,
    signal: isAbortSignal(request.signal) ? request.signal : undefined,
  });
  if (!run.ok || run.exitCode !== 0) {
    throw new ToolExecutionError(toolId, 'git_config_unreadable', {
      cause: run.ok ? run.exitCode : run.reason,
    });
  }
  const overrides = driverOverrides(run.stdout.toString('utf8').split('\0'));
  if (overrides.length > MAX_OVERRIDES) {
    throw new ToolExecutionError(toolId, 'git_config_too_many_drivers');
  }
  const start = Number(env['GIT_CONFIG_COUNT'] ?? '0');
  if (!Number.isSafeInteger(start) || start < 0) {
    throw new TypeError('toolhost: GIT_CONFIG_COUNT must be a count');
  }
  const result: Record<string, string> = { ...env };
  overrides.forEach(([key, value], offset) => {
    result[`GIT_CONFIG_KEY_${start + offset}`] = key;
    result[`GIT_CONFIG_VALUE_${start + offset}`] = value;
  });
  if (overrides.length > 0) result['GIT_CONFIG_COUNT'] = String(start + overrides.length);
  return result;
}

/**
 * `[key, value]` pairs that disarm every named driver in a `--name-only -z` listing. An empty
 * command is git's "no driver" (the content passes through unchanged); a filter that is not
 * `required` cannot fail the command for want of its program. `protocol.<name>.allow` is here
 * too: it would undo the static `protocol.allow=never` for one transport.
 */
export function driverOverrides(names: readonly string[]): readonly (readonly [string, string])[] {
  const seen = new Set<string>();
  const result: (readonly [string, string])[] = [];
  for (const name of names) {
    // `section.subsection.variable`: the section and variable never hold a dot; the subsection
    // may. Git lists the section lowercased and the subsection exactly as written.
    const first = name.indexOf('.');
    const last = name.lastIndexOf('.');
    if (first === -1 || last <= first) continue;
    const section = name.slice(0, first);
    const keys = DRIVER_KEYS[section];
    if (keys === undefined) continue;
    const prefix = `${section}.${name.slice(first + 1, last)}`;
    if (seen.has(prefix)) continue;
    seen.add(prefix);
    for (const [variable, value] of keys) result.push([`${prefix}.${variable}`, value]);
  }
  return result;
}

// Every program-valued variable of each per-name section (git-config(1), gitattributes(5)).
const DRIVER_KEYS: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  filter: [
    ['clean', ''],
    ['smudge', ''],
    ['process', ''],
    ['required', 'false'],
  ],
  diff: [
    ['textconv', ''],
    ['command', ''],
  ],
  merge: [['driver', '']],
  protocol: [['allow', 'never']],
};

const TIMEOUT_MS = 5000;
const MAX_LISTING_BYTES = 4 * 1024 * 1024;
// Far above any real config; a config naming more drivers is refused, never half-neutralised.
const MAX_OVERRIDES = 4096;

function isAbortSignal(signal: AbortSignalLike | undefined): signal is AbortSignal {
  return signal instanceof AbortSignal;
}
