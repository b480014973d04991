import { scanOptions, type OptionGrammar } from './scan-options.js';

/**
 * The tar trap check (GNU and bsdtar option forms).
 * GNU tar: the first argument may be a bundle of letters without a dash (`tar czf a.tgz src`),
 * getopt_long takes prefixes (`--to-com=…`), and an archive named `host:file` runs a remote shell
 * (rsh/ssh) unless `--force-local`.
 */
export function findTarTrap(args: readonly string[]): string | undefined {
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

/**
 * True when tar would write members to disk: extract mode (`x`, `--extract`, `--get`, in a
 * bundle or a cluster) without `-O` / `--to-stdout`, which only prints them.
 */
export function isTarExtracting(args: readonly string[]): boolean {
  const rest = [...args];
  const first = rest[0];
  let extracting = false;
  let toStdout = false;
  if (first !== undefined && first !== '' && !first.startsWith('-')) {
    extracting = first.includes('x');
    toStdout = first.includes('O');
    rest.shift();
    rest.splice(0, [...first].filter((letter) => TAR_GRAMMAR.shortValues?.has(letter)).length);
  }
  const mode = scanOptions(rest, {
    ...TAR_GRAMMAR,
    longTraps: { extract: 'x', get: 'x' },
    shortTraps: { x: 'x' },
  });
  const stdout = scanOptions(rest, {
    ...TAR_GRAMMAR,
    longTraps: { 'to-stdout': 'O' },
    shortTraps: { O: 'O' },
  });
  return (extracting || mode.trap !== undefined) && !(toStdout || stdout.trap !== undefined);
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
    // bsdtar's name for -P: members may be absolute or climb out with `..`.
    insecure: 'tar:--insecure',
    // Each writes a file of tar's own at any path the caller names.
    'index-file': 'tar:--index-file',
    'volno-file': 'tar:--volno-file',
    'listed-incremental': 'tar:--listed-incremental',
  },
  shortTraps: { I: 'tar:-I', F: 'tar:-F', P: 'tar:-P', g: 'tar:--listed-incremental' },
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
