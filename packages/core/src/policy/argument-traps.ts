import type { ToolPolicy } from '../dispatch-context.js';
import { BINARY_TRAPS } from './binary-argument-traps.js';
import { findExtractionTrap } from './extraction-argument-traps.js';
import { findGitTrap } from './git-argument-traps.js';

/**
 * The argument-trap floor: a command allowed only through a glob must not smuggle an execute,
 * write or config option of its binary (`git log *` must not allow `git log --output=/tmp/x`).
 * Returns the name of the first trap found, or `undefined` when the argv is clean.
 * Exact allowlist entries skip this floor: they are the author's explicit choice.
 * `policy.processSandbox` other than `required` (absent included) adds the unsandboxed floor.
 */
export function findArgumentTrap(
  argv: readonly string[],
  policy: Pick<ToolPolicy, 'processSandbox'> = {},
): string | undefined {
  const [command, ...args] = argv;
  if (command === undefined || command === '') return 'empty_command';
  // A program name with whitespace cannot be the binary the glob author had in mind: the joined
  // target would read as that binary plus arguments the floor never saw as such.
  if (/\s/.test(command)) return 'command_with_whitespace';
  const binary = basename(command);
  // Shells, launchers and interpreters run whatever their arguments say; a glob never allows them.
  if (LAUNCHERS.has(binary) || /^(python|pypy|ruby|perl|php|lua|node)[0-9.]*$/.test(binary)) {
    return `launcher:${binary}`;
  }
  // The binary's own traps first, so `explain` names the trap that holds in either mode.
  const trap = binary === 'git' ? findGitTrap(args) : BINARY_TRAPS.get(binary)?.(args);
  if (trap !== undefined || policy.processSandbox === 'required') return trap;
  return findExtractionTrap(binary, args);
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
  // Interpreters and tools whose argument is a program.
  'node',
  'nodejs',
  'deno',
  'bun',
  'bunx',
  'npx',
  'pnpx',
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'lua',
  'tclsh',
  'wish',
  'rscript',
  'osascript',
  'jshell',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'vi',
  'vim',
  'nvim',
  'view',
  'ex',
  'ed',
  'emacs',
  'nano',
  'xdg-open',
  'open',
  'systemd-run',
  'at',
  'batch',
  'crontab',
  'parallel',
  'gdb',
  'ssh-agent',
  'dbus-launch',
  'xvfb-run',
  'firejail',
  'bwrap',
  'proot',
  'fakeroot',
  'faketime',
  'torsocks',
  'proxychains',
  'proxychains4',
]);

function basename(command: string): string {
  const cut = Math.max(command.lastIndexOf('/'), command.lastIndexOf('\\'));
  // `GIT.EXE` is git to Windows; compare the name the OS resolves.
  return (cut === -1 ? command : command.slice(cut + 1)).toLowerCase().replace(/\.exe$/, '');
}
