import type { BinaryTrapCheck } from './binary-argument-traps.js';
import { scanOptions } from './scan-options.js';

/**
 * The npm trap check.
 * npm's nopt expands abbreviations and accepts `-long` as a long option.
 */
export function findNpmTrap(args: readonly string[]): string | undefined {
  const scan = scanOptions(args, {
    abbreviations: true,
    singleDashLong: true,
    longTraps: {
      prefix: 'npm:--prefix',
      'script-shell': 'npm:--script-shell',
      userconfig: 'npm:--userconfig',
      globalconfig: 'npm:--globalconfig',
      'node-options': 'npm:--node-options',
      shell: 'npm:--shell',
      call: 'npm:--call',
      git: 'npm:--git',
      editor: 'npm:--editor',
      browser: 'npm:--browser',
      viewer: 'npm:--viewer',
      'init-module': 'npm:--init-module',
      'onload-script': 'npm:--onload-script',
      cache: 'npm:--cache',
    },
    shortTraps: { C: 'npm:-C', c: 'npm:-c' },
    // No value skipping: nopt leaves an option-looking next argument to be parsed as an option.
    safeLong: new Set(['global']),
  });
  if (scan.trap !== undefined) return scan.trap;
  const operands = scan.operands.filter((operand) => !operand.afterEnd).map((o) => o.value);
  const [command, sub] = operands;
  if (command === undefined) return undefined;
  if (NPM_TRAP_COMMANDS.has(command)) return `npm:${command}`;
  if (
    (command === 'config' || command === 'c') &&
    sub !== 'get' &&
    sub !== 'list' &&
    sub !== 'ls'
  ) {
    return 'npm:config-write';
  }
  // `npm pkg set scripts.test=…` writes the script a later `npm test` runs.
  if (command === 'pkg' && sub !== 'get') return 'npm:pkg-write';
  return undefined;
}

const NPM_TRAP_COMMANDS: ReadonlySet<string> = new Set([
  'exec',
  'x',
  'explore',
  'edit',
  'set',
  'init',
  'create',
  'innit',
  'set-script',
]);

/** The pnpm / yarn trap check: their one-shot runners and config options. */
export function findPackageRunnerTrap(binary: string): BinaryTrapCheck {
  return (args) => {
    const end = args.indexOf('--');
    // An option's value or a filter may come first (`pnpm --filter web exec …`,
    // `yarn workspace web exec …`), so a runner word anywhere before `--` counts.
    const words = (end === -1 ? args : args.slice(0, end)).filter((arg) => !arg.startsWith('-'));
    const [first, second] = words;
    // Like `npm config set`: `script-shell` or yarn's `yarnPath` then runs on every later call.
    if (first === 'config' && second !== undefined && second !== 'get' && second !== 'list') {
      return `${binary}:config-write`;
    }
    // yarn's `plugin import <url>` and `set version <url>` fetch JavaScript every later call runs.
    if (first === 'plugin' || (first === 'set' && second === 'version'))
      return `${binary}:${first}`;
    // `yarn node …` runs node itself with whatever arguments follow.
    const runner = words.find((word) => RUNNER_WORDS.has(word));
    if (runner !== undefined) return `${binary}:${runner}`;
    // yarn 1's --use-yarnrc loads an rc whose yarn-path is the program every call runs.
    return args.some((arg) => /^--(config|global-folder|prefix|script-shell|use-yarnrc)/.test(arg))
      ? `${binary}:config-option`
      : undefined;
  };
}

const RUNNER_WORDS: ReadonlySet<string> = new Set(['dlx', 'exec', 'create', 'x', 'node']);

/** The docker / podman trap check: running or building anything is a launcher. */
export function findContainerTrap(binary: string): BinaryTrapCheck {
  return (args) => {
    if (args.some((arg) => /^(-H|-c|--host|--config|--context)/.test(arg))) {
      return `${binary}:host-option`;
    }
    // podman's global options that name a program it runs or a config that does.
    if (args.some((arg) => PODMAN_PROGRAM_OPTIONS.test(arg))) return `${binary}:program-option`;
    // `docker container run` is `docker run`; a global option's value may come first
    // (`docker --log-level debug container run`), so the first three words are judged.
    const words = args.filter((arg) => !arg.startsWith('-')).slice(0, 3);
    const trap = words.find((word) => CONTAINER_TRAPS.has(word));
    return trap === undefined ? undefined : `${binary}:${trap}`;
  };
}

const PODMAN_PROGRAM_OPTIONS =
  /^--(runtime|conmon|hooks-dir|network-cmd-path|module|url|remote|connection|identity|root|runroot)(=|$)/;

const CONTAINER_TRAPS: ReadonlySet<string> = new Set([
  'run',
  'exec',
  'create',
  'build',
  'compose',
  'cp',
  'start',
  'plugin',
  'buildx',
  'restart',
  'service',
  'stack',
  'builder',
  'debug',
]);
