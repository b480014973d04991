import { scanOptions, type OptionGrammar } from './scan-options.js';

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

// GNU tar: the first argument may be a bundle of letters without a dash (`tar czf a.tgz src`),
// getopt_long takes prefixes (`--to-com=…`), and an archive named `host:file` runs a remote
// shell (rsh/ssh) unless `--force-local`.
function findTarTrap(args: readonly string[]): string | undefined {
  const rest = [...args];
  const first = rest[0];
  if (first !== undefined && first !== '' && !first.startsWith('-')) {
    const letters = first;
    rest.shift();
    for (const letter of letters) {
      const trap = TAR_GRAMMAR.shortTraps?.[letter];
      if (trap !== undefined) return trap;
    }
    const valueCount = [...letters].filter((letter) => TAR_GRAMMAR.shortValues?.has(letter)).length;
    const fileIndex = [...letters]
      .filter((letter) => TAR_GRAMMAR.shortValues?.has(letter))
      .indexOf('f');
    if (fileIndex !== -1 && isRemoteArchive(rest[fileIndex])) return 'tar:remote-archive';
    rest.splice(0, valueCount);
  }
  const scan = scanOptions(rest, TAR_GRAMMAR);
  if (scan.trap !== undefined) return scan.trap;
  if (!rest.includes('--force-local')) {
    for (let index = 0; index < rest.length; index++) {
      const arg = rest[index] ?? '';
      if (arg === '--') break;
      const joined = /^--file=(.*)$/s.exec(arg)?.[1] ?? /^-[A-Za-z]*f(.+)$/s.exec(arg)?.[1];
      if (joined !== undefined && isRemoteArchive(joined)) return 'tar:remote-archive';
      if ((arg === '--file' || /^-[A-Za-z]*f$/.test(arg)) && isRemoteArchive(rest[index + 1])) {
        return 'tar:remote-archive';
      }
    }
  }
  return undefined;
}

function isRemoteArchive(value: string | undefined): boolean {
  return value !== undefined && /^[^/]*:/.test(value);
}

const TAR_GRAMMAR: OptionGrammar = {
  abbreviations: true,
  longTraps: {
    'to-command': 'tar:--to-command',
    'checkpoint-action': 'tar:--checkpoint-action',
    'use-compress-program': 'tar:--use-compress-program',
    'info-script': 'tar:--info-script',
    'new-volume-script': 'tar:--new-volume-script',
    'rsh-command': 'tar:--rsh-command',
    'rmt-command': 'tar:--rmt-command',
    'absolute-names': 'tar:--absolute-names',
  },
  shortTraps: { I: 'tar:-I', F: 'tar:-F', P: 'tar:-P' },
  shortValues: new Set(['f', 'C', 'I', 'F', 'g', 'K', 'L', 'N', 'T', 'X', 'b', 'H', 'V']),
  longValues: new Set([
    'file',
    'directory',
    'exclude',
    'files-from',
    'exclude-from',
    'format',
    'owner',
    'group',
    'mode',
    'transform',
    'xform',
  ]),
  safeLong: new Set(['checkpoint']),
};

// npm's nopt expands abbreviations and accepts `-long` as a long option.
function findNpmTrap(args: readonly string[]): string | undefined {
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
]);

function findPackageRunnerTrap(binary: string): BinaryTrapCheck {
  return (args) => {
    const first = args.find((arg) => !arg.startsWith('-'));
    if (first === 'dlx' || first === 'exec' || first === 'create' || first === 'x') {
      return `${binary}:${first}`;
    }
    return args.some((arg) => /^--(config|global-folder|prefix|script-shell)/.test(arg))
      ? `${binary}:config-option`
      : undefined;
  };
}

function findContainerTrap(binary: string): BinaryTrapCheck {
  return (args) => {
    if (args.some((arg) => /^(-H|--host|--config|--context)/.test(arg)))
      return `${binary}:host-option`;
    const first = args.find((arg) => !arg.startsWith('-'));
    return first !== undefined && CONTAINER_TRAPS.has(first) ? `${binary}:${first}` : undefined;
  };
}

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
]);

// OpenSSH: `-o Key=value` / `-oKey value`, keys case-insensitive; several keys run commands.
function findSshTrap(binary: string): BinaryTrapCheck {
  return (args) => findSshTrapIn(binary, args);
}

function findSshTrapIn(binary: string, args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--' || !arg.startsWith('-')) break;
    for (let position = 1; position < arg.length; position++) {
      const letter = arg[position] ?? '';
      // -F: a config file with ProxyCommand; -S: scp/sftp's ssh program; -I: a PKCS#11
      // library to load; -D on sftp: the sftp-server program.
      if (
        letter === 'F' ||
        letter === 'S' ||
        letter === 'I' ||
        (letter === 'D' && binary === 'sftp')
      ) {
        return `${binary}:-${letter}`;
      }
      if (letter === 'o') {
        const value = arg.slice(position + 1) || args[++index] || '';
        const key = (/^\s*([A-Za-z0-9]+)/.exec(value)?.[1] ?? '').toLowerCase();
        if (SSH_TRAP_KEYS.has(key)) return `${binary}:-o${key}`;
        break;
      }
      if (SSH_VALUE_LETTERS.has(letter)) {
        if (position === arg.length - 1) index++;
        break;
      }
    }
  }
  return undefined;
}

const SSH_TRAP_KEYS: ReadonlySet<string> = new Set([
  'proxycommand',
  'localcommand',
  'permitlocalcommand',
  'knownhostscommand',
  'include',
  'match',
  'pkcs11provider',
  'securitykeyprovider',
  'remotecommand',
  'identityagent',
  'controlpath',
  'proxyusefdpass',
  'sshaskpass',
]);
const SSH_VALUE_LETTERS: ReadonlySet<string> = new Set('bcDEeiJLlmOpQRWwBPr'.split(''));

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
  return scan.operands[0]?.value === 'generate' ? 'go:generate' : undefined;
}
