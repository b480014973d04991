import { findContainerTrap, findNpmTrap, findPackageRunnerTrap } from './package-argument-traps.js';
import { CURL_SHORT_VALUES, findSshTrap, withLocalFileCheck } from './remote-argument-traps.js';
import { scanOptions, type OptionGrammar } from './scan-options.js';
import { findTarTrap } from './tar-argument-traps.js';
import { findGoTrap } from './go-argument-traps.js';

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
  ['gtar', findTarTrap],
  ['bsdtar', findTarTrap],
  // Path-safety switches: `-:` lets members climb out with `../`, `-spf` keeps absolute paths,
  // `--follow-symlinks` writes through a link the patch did not create.
  ['unzip', (args) => (args.some((arg) => /^-[^-]*[:^]/.test(arg)) ? 'unzip:-:' : undefined)],
  ['7z', findSevenZipTrap],
  ['7za', findSevenZipTrap],
  ['7zr', findSevenZipTrap],
  [
    'patch',
    grammarCheck({
      abbreviations: true,
      longTraps: { 'follow-symlinks': 'patch:--follow-symlinks' },
    }),
  ],
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
        // Options for the other rsync, which for a local copy is a local process.
        'remote-option': 'rsync:--remote-option',
        // Each writes or reads a file of rsync's own at any path the caller names.
        'log-file': 'rsync:--log-file',
        'write-batch': 'rsync:--write-batch',
        'only-write-batch': 'rsync:--only-write-batch',
        'read-batch': 'rsync:--read-batch',
        'early-input': 'rsync:--early-input',
      },
      shortTraps: { e: 'rsync:-e', M: 'rsync:--remote-option' },
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
  ['man', findManTrap],
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
          // Caches curl writes back at any path the caller names.
          hsts: 'curl:--hsts',
          'alt-svc': 'curl:--alt-svc',
          'etag-save': 'curl:--etag-save',
          'ssl-sessions': 'curl:--ssl-sessions',
          // A local socket is not the network the glob author meant: docker.sock runs anything.
          'unix-socket': 'curl:--unix-socket',
          'abstract-unix-socket': 'curl:--abstract-unix-socket',
          // An OpenSSL engine is a shared library curl loads.
          engine: 'curl:--engine',
        },
        shortTraps: {
          o: 'curl:-o',
          O: 'curl:-O',
          K: 'curl:-K',
          T: 'curl:-T',
          D: 'curl:-D',
          c: 'curl:-c',
        },
        shortValues: CURL_SHORT_VALUES,
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
        // Reads a local file and requests each line: its content goes out in URLs.
        'input-file': 'wget:--input-file',
        'input-metalink': 'wget:--input-metalink',
        // Each writes a file of wget's own at any path the caller names.
        'save-cookies': 'wget:--save-cookies',
        'hsts-file': 'wget:--hsts-file',
        'rejected-log': 'wget:--rejected-log',
        'warc-file': 'wget:--warc-file',
      },
      shortTraps: {
        e: 'wget:-e',
        O: 'wget:-O',
        o: 'wget:-o',
        a: 'wget:-a',
        P: 'wget:-P',
        i: 'wget:--input-file',
      },
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

// 7-Zip switches are `-` words matched case-insensitively: `-spf`/`-spf2` store and extract
// absolute paths.
function findSevenZipTrap(args: readonly string[]): string | undefined {
  return args.some((arg) => /^-spf/i.test(arg)) ? '7z:-spf' : undefined;
}

// man-db: -C/--config-file loads a man_db.conf whose DEFINE lines name the pager, nroff and
// preprocessors it runs; -l/--local-file, or any page argument with a `/`, formats a file from
// anywhere on the host, around the fs jail.
function findManTrap(args: readonly string[]): string | undefined {
  const scan = scanOptions(args, {
    abbreviations: true,
    longTraps: {
      pager: 'man:--pager',
      html: 'man:--html',
      preprocessor: 'man:--preprocessor',
      'config-file': 'man:--config-file',
      'local-file': 'man:--local-file',
    },
    shortTraps: { P: 'man:-P', H: 'man:-H', p: 'man:-p', C: 'man:-C', l: 'man:-l' },
    shortValues: new Set(['L', 'm', 'M', 'S', 's', 'e', 'E', 'R', 'r']),
    longValues: new Set(['locale', 'systems', 'manpath', 'sections', 'extension', 'encoding']),
  });
  if (scan.trap !== undefined) return scan.trap;
  return scan.operands.some((operand) => operand.value.includes('/'))
    ? 'man:local-file'
    : undefined;
}

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
    // -o / -O / --log-file / --LOG-FILE copy the input to any file.
    if (/^-[A-Za-z]*[oO]/.test(arg) || /^--log-file/i.test(arg)) return 'less:--log-file';
  }
  return undefined;
}
