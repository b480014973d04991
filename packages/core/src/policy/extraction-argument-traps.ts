import { isGitPatching } from './git-argument-traps.js';
import { scanOptions, type OptionGrammar } from './scan-options.js';
import { isTarExtracting } from './tar-argument-traps.js';

/**
 * The unsandboxed floor: without the host's process sandbox, a tool that writes the paths an
 * archive or a patch names (`../../.bashrc`, a symlink member then a file through it,
 * `.git/hooks/post-checkout`) writes wherever the payload says, so a glob never allows one in a
 * writing mode; like shells, only exact entries can. Modes that only list, test or print pass.
 * Returns `unsandboxed-extract:<binary>`, or `undefined`.
 */
export function findExtractionTrap(binary: string, args: readonly string[]): string | undefined {
  return writesPayloadPaths(binary, args) ? `unsandboxed-extract:${binary}` : undefined;
}

function writesPayloadPaths(binary: string, args: readonly string[]): boolean {
  if (ALWAYS_EXTRACTING.has(binary)) return true;
  switch (binary) {
    case 'tar':
    case 'gtar':
    case 'bsdtar':
      return isTarExtracting(args);
    case 'git':
      return isGitPatching(args);
    case 'unzip':
      return isUnzipExtracting(args);
    case 'patch':
      return !args.includes('--dry-run');
    case 'cp':
      return hasTrap(args, COPY_RECURSIVE);
    case 'rsync':
      return hasTrap(args, RSYNC_RECURSIVE);
    case 'cpio':
      return hasTrap(args, CPIO_EXTRACTING);
    case 'ar':
    case 'jar':
      // The key letters come first, with or without a dash (`ar x lib.a`, `jar -xf a.jar`).
      return /^-{0,2}[A-Za-z]*x/.test(args[0] ?? '') || args.includes('--extract');
    default:
      return false;
  }
}

// Archivers whose common use is extraction and whose read-only modes nobody globs for.
const ALWAYS_EXTRACTING: ReadonlySet<string> = new Set([
  '7z',
  '7za',
  '7zr',
  'unrar',
  'rar',
  'unar',
  'cabextract',
  'unsquashfs',
  'pax',
  'dpkg-deb',
  'quilt',
]);

function hasTrap(args: readonly string[], grammar: OptionGrammar): boolean {
  return scanOptions(args, grammar).trap !== undefined;
}

// unzip clusters: `-l -t -p -c -v -z -Z` only list, test or print; `-d` takes the rest of the
// cluster (`-dout`) or the next argument as the directory.
function isUnzipExtracting(args: readonly string[]): boolean {
  for (const arg of args) {
    if (!arg.startsWith('-') || arg === '-') continue;
    for (const letter of arg.slice(1)) {
      if (letter === 'd') break;
      if ('ltpcvzZ'.includes(letter)) return false;
    }
  }
  return true;
}

const COPY_RECURSIVE: OptionGrammar = {
  abbreviations: true,
  longTraps: { recursive: 'r', archive: 'a' },
  shortTraps: { r: 'r', R: 'r', a: 'a' },
  shortValues: new Set(['t', 'S']),
  longValues: new Set(['target-directory', 'suffix']),
};

const RSYNC_RECURSIVE: OptionGrammar = {
  abbreviations: true,
  longTraps: { recursive: 'r', archive: 'a' },
  shortTraps: { r: 'r', a: 'a' },
  shortValues: new Set(['e', 'f', 'B', 'T', 'M']),
};

// -i / --extract and -p / --pass-through write the names the archive or stdin carries.
const CPIO_EXTRACTING: OptionGrammar = {
  abbreviations: true,
  longTraps: { extract: 'i', 'pass-through': 'p' },
  shortTraps: { i: 'i', p: 'p' },
  shortValues: new Set(['H', 'F', 'I', 'O', 'E', 'M', 'R', 'C']),
};
