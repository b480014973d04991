import { isConfigRead } from './git-config-argument-traps.js';
import { scanOptions, type OptionGrammar } from './scan-options.js';

/**
 * The git trap floor. git reads global options before the subcommand (`-c`, `--git-dir`,
 * `--exec-path` … each rewires config, repository or helpers), then the subcommand, which is
 * either a built-in or an alias / `git-<name>` helper (both run arbitrary programs), then the
 * subcommand's own options, where parse-options accepts abbreviations and joined values.
 */
export function findGitTrap(args: readonly string[]): string | undefined {
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (!arg.startsWith('-')) break;
    const name = arg.startsWith('--') ? (arg.slice(2).split('=')[0] ?? '') : arg;
    const safe = arg.startsWith('--')
      ? SAFE_GLOBAL_LONG.has(name) && !(name === 'exec-path' && arg.includes('='))
      : SAFE_GLOBAL_SHORT.has(arg);
    if (!safe) return `git:global-option:${describeGlobal(arg)}`;
  }
  const subcommand = args[index];
  if (subcommand === undefined) return undefined;
  const rest = args.slice(index + 1);
  if (FORBIDDEN_SUBCOMMANDS.has(subcommand)) return `git:${subcommand}`;
  if (!KNOWN_SUBCOMMANDS.has(subcommand)) return 'git:alias-or-helper';
  const scan = scanOptions(rest, grammarFor(subcommand));
  if (scan.trap !== undefined) return scan.trap;
  const operands = scan.operands.filter((operand) => !operand.afterEnd).map((o) => o.value);
  if (subcommand === 'bisect' && operands[0] === 'run') return 'git:bisect-run';
  if (subcommand === 'submodule' && operands.includes('foreach')) return 'git:submodule-foreach';
  if (subcommand === 'config' && !isConfigRead(rest)) return 'git:config-write';
  if (NETWORK_SUBCOMMANDS.has(subcommand) && hasRemoteHelperUrl(rest))
    return 'git:remote-helper-url';
  // A file:// remote reads any repository on the host into the workspace, around the fs jail.
  if (NETWORK_SUBCOMMANDS.has(subcommand) && operands.some((value) => /^file:/i.test(value))) {
    return 'git:file-url';
  }
  if (subcommand === 'help' && rest.some((arg) => /^(-[a-z]*[wi]|--web|--info)/.test(arg))) {
    return 'git:help-viewer';
  }
  return undefined;
}

/**
 * True when the git call applies a patch to files: `apply` (unless it only reports: `--stat`,
 * `--numstat`, `--summary`, `--check` without `--apply`) and `am`.
 */
export function isGitPatching(args: readonly string[]): boolean {
  // Every global option that takes a value is a trap already, so the first word is the command.
  const index = args.findIndex((arg) => !arg.startsWith('-'));
  const subcommand = index === -1 ? undefined : args[index];
  if (subcommand === 'am') return true;
  if (subcommand !== 'apply') return false;
  const options = args.slice(index + 1);
  const end = options.findIndex((arg) => arg === '--' || arg === '--end-of-options');
  const before = end === -1 ? options : options.slice(0, end);
  const reportOnly = before.some((arg) => REPORT_ONLY_APPLY.has(arg));
  return !reportOnly || before.includes('--apply');
}

const REPORT_ONLY_APPLY: ReadonlySet<string> = new Set([
  '--stat',
  '--numstat',
  '--summary',
  '--check',
]);

function grammarFor(subcommand: string): OptionGrammar {
  return {
    abbreviations: true,
    negations: true,
    endOfOptions: ['--', '--end-of-options'],
    longTraps: LONG_TRAPS,
    shortTraps: SHORT_TRAPS[subcommand] ?? {},
    shortValues: SHORT_VALUES[subcommand] ?? new Set(),
    longValues: LONG_VALUES,
    safeLong: SAFE_LONG,
  };
}

// `<transport>::<address>` runs `git-remote-<transport>`; `ext::` runs any command. Checked in
// operands and in option values (`--remote=ext::…`), up to the end of options.
function hasRemoteHelperUrl(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--' || arg === '--end-of-options') return false;
    const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(value)) return true;
  }
  return false;
}

function describeGlobal(arg: string): string {
  const match = /^(--?[A-Za-z-]+)/.exec(arg);
  return (match?.[1] ?? '-').slice(0, 32);
}

// Harmless switches git accepts before the subcommand; anything else (-c, -C, --git-dir,
// --work-tree, --exec-path=, --config-env, --namespace, --super-prefix, --bare …) is a trap.
const SAFE_GLOBAL_LONG: ReadonlySet<string> = new Set([
  'no-pager',
  'paginate',
  'no-replace-objects',
  'literal-pathspecs',
  'glob-pathspecs',
  'noglob-pathspecs',
  'icase-pathspecs',
  'no-optional-locks',
  'no-advice',
  'version',
  'help',
  'exec-path',
  'html-path',
  'man-path',
  'info-path',
]);
const SAFE_GLOBAL_SHORT: ReadonlySet<string> = new Set(['-p', '-P', '-v', '-h']);

// Each runs arbitrary programs, serves the repository, or reads credentials.
const FORBIDDEN_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'filter-branch',
  'send-email',
  'instaweb',
  'daemon',
  'credential',
  'credential-store',
  'credential-cache',
  'web--browse',
  'upload-pack',
  'receive-pack',
  'upload-archive',
  'fsmonitor--daemon',
  'difftool',
  'mergetool',
  'remote-ext',
  'remote-fd',
  'shell',
  // `maintenance start|register` schedules git in cron/systemd and writes global config.
  'maintenance',
]);

// Built-ins only: anything else is resolved as an alias (`!cmd` runs a shell) or a git-<name>
// program on PATH.
const KNOWN_SUBCOMMANDS: ReadonlySet<string> = new Set(
  `add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore
  check-mailmap check-ref-format checkout checkout-index cherry cherry-pick clean clone column
  commit commit-graph commit-tree config count-objects describe diff diff-files diff-index
  diff-tree fast-export fetch fetch-pack for-each-ref format-patch fsck gc get-tar-commit-id grep
  hash-object help init init-db interpret-trailers log ls-files ls-remote ls-tree
  merge merge-base merge-file merge-tree mktag mktree mv name-rev notes pack-objects pack-refs
  prune prune-packed pull push range-diff read-tree rebase reflog remote repack replace
  request-pull rerere reset restore rev-list rev-parse revert rm shortlog show show-branch
  show-index show-ref sparse-checkout stash status stripspace submodule switch symbolic-ref tag
  unpack-file unpack-objects update-index update-ref var verify-commit verify-pack verify-tag
  version whatchanged worktree write-tree`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

// Remote-taking subcommands, where an operand may be a transport URL.
const NETWORK_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'clone',
  'fetch',
  'pull',
  'push',
  'ls-remote',
  'archive',
  'submodule',
  'fetch-pack',
  'remote',
]);

// Long options that execute, write outside the tree, or re-point config, in any subcommand.
const LONG_TRAPS: Readonly<Record<string, string>> = {
  output: 'git:--output',
  'output-directory': 'git:--output-directory',
  'ext-diff': 'git:--ext-diff',
  textconv: 'git:--textconv',
  'upload-pack': 'git:--upload-pack',
  'receive-pack': 'git:--receive-pack',
  exec: 'git:--exec',
  'open-files-in-pager': 'git:--open-files-in-pager',
  extcmd: 'git:--extcmd',
  template: 'git:--template',
  config: 'git:--config',
  'config-env': 'git:--config-env',
  'separate-git-dir': 'git:--separate-git-dir',
  'no-index': 'git:--no-index',
  'git-dir': 'git:--git-dir',
  'work-tree': 'git:--work-tree',
  'exec-path': 'git:--exec-path',
  'upload-archive': 'git:--upload-archive',
  // apply/am: lets a patch write outside the work tree (`.git/hooks/…`, `/home/…`).
  'unsafe-paths': 'git:--unsafe-paths',
};

// Short forms that are traps only in some subcommands (`-u` is --upload-pack only on clone).
const SHORT_TRAPS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  clone: { u: 'git:clone-u', c: 'git:clone-c' },
  grep: { O: 'git:grep-O' },
  rebase: { x: 'git:rebase-x' },
  'format-patch': { o: 'git:format-patch-o' },
  archive: { o: 'git:archive-o' },
  'ls-remote': { u: 'git:ls-remote-u' },
};

const SHORT_VALUES: Readonly<Record<string, ReadonlySet<string>>> = {
  log: new Set(['n']),
  show: new Set(['n']),
  grep: new Set(['e', 'f', 'A', 'B', 'C', 'm']),
  clone: new Set(['b', 'o', 'j']),
  commit: new Set(['m', 'F', 'C', 'c', 't']),
  rebase: new Set(['s', 'X']),
  branch: new Set(['u']),
  tag: new Set(['m', 'F', 'u']),
};

// Exact options that are prefixes of a trap: an exact match wins in parse-options.
const SAFE_LONG: ReadonlySet<string> = new Set(['text']);

// Long options that always take the next argument as their value (git consumes it even when it
// starts with `-`), so it is skipped rather than scanned. Only options that take a separate value
// in every subcommand belong here: a wrong entry would hide the option after it (`--format` has
// no separate form, so `git log --format --output=x` still writes the file).
const LONG_VALUES: ReadonlySet<string> = new Set(['grep', 'author', 'committer', 'message']);
