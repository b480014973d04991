import type { BinaryTrapCheck } from './binary-argument-traps.js';

/**
 * The ssh / scp / sftp trap check.
 * OpenSSH: `-o Key=value` / `-oKey value`, keys case-insensitive; several keys run commands.
 */
export function findSshTrap(binary: string): BinaryTrapCheck {
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

/**
 * Adds curl's local-file reads to a curl trap check.
 * curl reads local files into a request (`-d @file`, `-F f=@file`, `-H @file`, `-b file`): with a
 * glob-allowed curl that is an exfiltration channel around the fs jail.
 */
export function withLocalFileCheck(check: BinaryTrapCheck): BinaryTrapCheck {
  return (args) => check(args) ?? findCurlLocalFile(args);
}

function findCurlLocalFile(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--') return undefined;
    const long = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    let name: string | undefined;
    let value: string | undefined;
    if (long !== null) {
      name = long[1];
      value = long[2] ?? (CURL_FILE_OPTIONS.has(name ?? '') ? args[++index] : undefined);
    } else if (/^-[A-Za-z]/.test(arg)) {
      const letter = [...arg.slice(1)].find((char) => CURL_FILE_SHORT.has(char));
      if (letter !== undefined) {
        name = CURL_FILE_SHORT.get(letter);
        const rest = arg.slice(arg.indexOf(letter) + 1);
        value = rest !== '' ? rest : args[++index];
      }
    }
    if (name === undefined || value === undefined || !CURL_FILE_OPTIONS.has(name)) continue;
    // `-w @file` prints a local file to stdout; `%output{file}` (curl 8.3) writes to any file.
    if (name === 'write-out') {
      if (value.startsWith('@') || /%output\{/i.test(value)) return 'curl:--write-out';
      continue;
    }
    const readsFile =
      name === 'cookie'
        ? !value.includes('=')
        : /^[@<]/.test(value) ||
          /^[^=]*=[@<]/.test(value) ||
          ((name === 'data-urlencode' || name === 'url-query') && /^[^=]*@/.test(value));
    if (readsFile) return 'curl:local-file';
  }
  return undefined;
}

const CURL_FILE_OPTIONS: ReadonlySet<string> = new Set([
  'data',
  'data-ascii',
  'data-binary',
  'data-urlencode',
  'json',
  'form',
  'header',
  'proxy-header',
  'url-query',
  'cookie',
  'variable',
  'write-out',
]);
const CURL_FILE_SHORT: ReadonlyMap<string, string> = new Map([
  ['d', 'data'],
  ['F', 'form'],
  ['H', 'header'],
  ['b', 'cookie'],
  ['w', 'write-out'],
]);
