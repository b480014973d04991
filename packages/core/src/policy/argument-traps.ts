/**
 * The argument-trap floor: a command allowed only through a glob must not smuggle an execute,
 * write or config option of its binary (`git log *` must not allow `git log --output=/tmp/x`).
 * Returns the name of the first trap found, or `undefined` when the argv is clean.
 * Exact allowlist entries skip this floor: they are the author's explicit choice.
 */
export function findArgumentTrap(argv: readonly string[]): string | undefined {
  const [command] = argv;
  if (command === undefined || command === '') return 'empty_command';
  const binary = basename(command);
  // Shells and launchers run whatever their arguments say; a glob can never allow them.
  if (LAUNCHERS.has(binary)) return `launcher:${binary}`;
  return undefined;
}

const LAUNCHERS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'csh',
  'tcsh',
  'fish',
  'ash',
  'busybox',
  'env',
  'xargs',
  'nice',
  'nohup',
  'timeout',
  'sudo',
  'doas',
  'su',
  'runuser',
  'setsid',
  'stdbuf',
  'chroot',
  'unshare',
  'nsenter',
  'strace',
  'ltrace',
  'time',
  'watch',
  'flock',
  'ionice',
  'taskset',
  'chrt',
  'prlimit',
  'script',
  'expect',
  'eval',
  'exec',
  'command',
  'pwsh',
  'powershell',
  'cmd',
  'cmd.exe',
]);

function basename(command: string): string {
  const cut = Math.max(command.lastIndexOf('/'), command.lastIndexOf('\\'));
  return (cut === -1 ? command : command.slice(cut + 1)).toLowerCase();
}
