import { findContainerTrap, findNpmTrap, findPackageRunnerTrap } from './package-argument-traps.js';
import { findSshTrap, withLocalFileCheck } from './remote-argument-traps.js';
import { scanOptions, type OptionGrammar } from './scan-options.js';
import { findTarTrap } from './tar-argument-traps.js';

/** A binary's trap check: the first trap in its arguments (argv without argv[0]), if any. */
export type BinaryTrapCheck = (args: readonly string[]) => string | undefined;

/**
 * Per-binary trap checks beyond git: each knows its binary's option grammar, so a trap hidden in
 * a joined form (`-oProxyCommand=…`, `--pre=sh`, `--to-com=…`) is found and a look-alike inside
 * a value or after `--` is not.
 */
export const BINARY_TRAPS: ReadonlyMap<string, BinaryTrapCheck> = new Map<string, BinaryTrapCheck>([
  ['find', findFindTrap],
  [
    'rg',
    grammarCheck({
      longTraps: { pre: 'rg:--pre', 'hostname-bin': 'rg:--hostname-bin' },
      shortValues: new Set(['A', 'B', 'C', 'e', 'f', 'g', 'j', 'm', 'M', 't', 'T', 'E', 'r', 'd']),
      longValues: new Set([
        'regexp',
        'file',
        'glob',
        'iglob',
        'type',
        'type-not',
        'max-count',
        'replace',
      ]),
    }),
  ],
  ['tar', findTarTrap],
  [
    'zip',
    grammarCheck({
      longTraps: { test: 'zip:-T', 'unzip-command': 'zip:-TT' },
      shortTraps: { T: 'zip:-T' },
      abbreviations: true,
    }),
  ],
  ['npm', findNpmTrap],
  ['ssh', findSshTrap('ssh')],
  ['scp', findSshTrap('scp')],
  ['sftp', findSshTrap('sftp')],
  [
    'rsync',
    grammarCheck({
      longTraps: {
        rsh: 'rsync:--rsh',
        'rsync-path': 'rsync:--rsync-path',
        config: 'rsync:--config',
        daemon: 'rsync:--daemon',
      },
      shortTraps: { e: 'rsync:-e' },
      abbreviations: true,
    }),
  ],
  [
    'sort',
    grammarCheck({
      longTraps: { 'compress-program': 'sort:--compress-program', output: 'sort:--output' },
      shortTraps: { o: 'sort:-o' },
      shortValues: new Set(['k', 't', 'S', 'T']),
      abbreviations: true,
    }),
  ],
  ['make', findMakeTrap],
  [
    'man',
    grammarCheck({
      longTraps: { pager: 'man:--pager', html: 'man:--html', preprocessor: 'man:--preprocessor' },
      shortTraps: { P: 'man:-P', H: 'man:-H', p: 'man:-p' },
      abbreviations: true,
    }),
  ],
  ['less', findLessTrap],
  ['more', findLessTrap],
  [
    'curl',
    withLocalFileCheck(
      grammarCheck({
        longTraps: {
          output: 'curl:--output',
          'remote-name': 'curl:--remote-name',
          'remote-name-all': 'curl:--remote-name-all',
          config: 'curl:--config',
          'upload-file': 'curl:--upload-file',
          'output-dir': 'curl:--output-dir',
          'dump-header': 'curl:--dump-header',
          'cookie-jar': 'curl:--cookie-jar',
          trace: 'curl:--trace',
          'trace-ascii': 'curl:--trace-ascii',
          libcurl: 'curl:--libcurl',
          stderr: 'curl:--stderr',
        },
        shortTraps: {
          o: 'curl:-o',
          O: 'curl:-O',
          K: 'curl:-K',
          T: 'curl:-T',
          D: 'curl:-D',
          c: 'curl:-c',
        },
        shortValues: new Set([
          'd',
          'H',
          'X',
          'u',
          'A',
          'e',
          'F',
          'm',
          'x',
          'b',
          'r',
          'w',
          'E',
          'y',
          'Y',
          'z',
        ]),
      }),
    ),
  ],
  [
    'wget',
    grammarCheck({
      longTraps: {
        execute: 'wget:--execute',
        'output-document': 'wget:--output-document',
        'output-file': 'wget:--output-file',
        'append-output': 'wget:--append-output',
        config: 'wget:--config',
        'post-file': 'wget:--post-file',
        'body-file': 'wget:--body-file',
        'directory-prefix': 'wget:--directory-prefix',
        'use-askpass': 'wget:--use-askpass',
      },
      shortTraps: { e: 'wget:-e', O: 'wget:-O', o: 'wget:-o', a: 'wget:-a', P: 'wget:-P' },
      abbreviations: true,
    }),
  ],
  ['dd', (args) => (args.some((arg) => /^of=/i.test(arg)) ? 'dd:of' : undefined)],
  ['go', findGoTrap],
  [
    'cargo',
    grammarCheck({ longTraps: { config: 'cargo:--config' }, shortTraps: { Z: 'cargo:-Z' } }),
  ],
  ['pnpm', findPackageRunnerTrap('pnpm')],
  ['yarn', findPackageRunnerTrap('yarn')],
  ['docker', findContainerTrap('docker')],
  ['podman', findContainerTrap('podman')],
]);

function grammarCheck(grammar: OptionGrammar): BinaryTrapCheck {
  return (args) => scanOptions(args, grammar).trap;
}

// find's expression is not getopt: `--` only ends the leading -H/-L/-P options, primaries are
// single-dash words anywhere, and the data an action runs follows it up to `;` or `+`.
function findFindTrap(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    const trap = FIND_TRAPS[arg];
    if (trap !== undefined) return trap;
    if (/^-fprint/.test(arg)) return 'find:-fprint';
    if (FIND_VALUE_PRIMARIES.has(arg) || /^-newer[a-zA-Z]{2}$/.test(arg)) index++;
  }
  return undefined;
}

const FIND_TRAPS: Readonly<Record<string, string>> = {
  '-exec': 'find:-exec',
  '-execdir': 'find:-execdir',
  '-ok': 'find:-ok',
  '-okdir': 'find:-okdir',
  '-delete': 'find:-delete',
  '-fls': 'find:-fls',
};

const FIND_VALUE_PRIMARIES: ReadonlySet<string> = new Set(
  `-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype
  -user -group -uid -gid -perm -size -newer -anewer -cnewer -mtime -mmin -atime -amin -ctime
  -cmin -used -links -inum -samefile -maxdepth -mindepth -printf -regextype -context -fstype
  -files0-from`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

// Variable overrides on make's command line reach every recipe (`CC=touch /tmp/x`, `SHELL=…`).
function findMakeTrap(args: readonly string[]): string | undefined {
  const scan = scanOptions(args, {
    abbreviations: true,
    longTraps: {
      eval: 'make:--eval',
      file: 'make:--file',
      makefile: 'make:--makefile',
      'include-dir': 'make:--include-dir',
      directory: 'make:--directory',
    },
    shortTraps: { f: 'make:-f', E: 'make:--eval', I: 'make:-I', C: 'make:-C' },
    shortValues: new Set(['j', 'l', 'o', 'W']),
  });
  if (scan.trap !== undefined) return scan.trap;
  return scan.operands.some((operand) => operand.value.includes('='))
    ? 'make:variable-override'
    : undefined;
}

// less runs `+cmd` as a startup command (`+!sh`), and `-` options can set an editor/lesskey.
function findLessTrap(args: readonly string[]): string | undefined {
  for (const arg of args) {
    if (arg === '--') return undefined;
    if (arg.startsWith('+') || /^-+\+/.test(arg)) return 'less:+command';
    if (/^--?(lesskey|lesskey-src|lesskey-file)/.test(arg) || /^-k/.test(arg))
      return 'less:--lesskey';
  }
  return undefined;
}

// go flags are single- or double-dash words; `-toolexec` and `-exec` name programs to run and
// `go generate` runs the commands written in the sources.
function findGoTrap(args: readonly string[]): string | undefined {
  const scan = scanOptions(args, {
    singleDashLong: true,
    longTraps: {
      toolexec: 'go:-toolexec',
      exec: 'go:-exec',
      overlay: 'go:-overlay',
      modfile: 'go:-modfile',
    },
    shortTraps: { C: 'go:-C' },
  });
  if (scan.trap !== undefined) return scan.trap;
  const first = scan.operands[0]?.value;
  // `go env -w GOFLAGS=-toolexec=…` persists a flag every later `go build` obeys.
  if (first === 'env' && args.some((arg) => /^--?w(=|$)/.test(arg))) return 'go:env-write';
  return first === 'generate' ? 'go:generate' : undefined;
}
