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
      // library to load; -D on sftp: the sftp-server program; -E on ssh: a log file at any path.
      if (
        letter === 'F' ||
        letter === 'S' ||
        letter === 'I' ||
        (letter === 'D' && binary === 'sftp') ||
        (letter === 'E' && binary === 'ssh')
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
  // Host keys are appended to this file: a write at any path.
  'userknownhostsfile',
]);
const SSH_VALUE_LETTERS: ReadonlySet<string> = new Set('bcDEeiJLlmOpQRWwBPr'.split(''));

/**
 * Adds curl's local-file reads to a curl trap check.
 * curl reads local files into a request (`-d @file`, `-F f=@file`, `-H @file`, `-b file`): with a
 * glob-allowed curl that is an exfiltration channel around the fs jail.
 */
export function withLocalFileCheck(check: BinaryTrapCheck): BinaryTrapCheck {
  return (args) => check(args) ?? findCurlLocalFile(args) ?? findCurlUrlTrap(args);
}

/**
 * curl speaks far more than http(s): `file://` (any case, `FILE:/etc/passwd`) reads any local
 * file, `scp:`/`sftp:` use the host's ssh keys, `gopher:`/`dict:`/`telnet:` write raw bytes to any
 * port. A URL (an operand or `--url`) must be http(s) or scheme-less; `--proto-default` re-points
 * the scheme-less ones; curl's `{a,b}` / `[1-9]` globbing can spell a scheme, so a glob character
 * before the path is refused too.
 */
function findCurlUrlTrap(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--')
      return args.slice(index + 1).some(isNonHttpUrl) ? 'curl:url-scheme' : undefined;
    const long = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (long !== null) {
      const name = long[1] ?? '';
      const value = long[2] ?? (CURL_URL_VALUE_OPTIONS.has(name) ? args[++index] : undefined);
      if (name === 'url' && value !== undefined && isNonHttpUrl(value)) return 'curl:url-scheme';
      if (name === 'proto-default' && !/^https?$/i.test(value ?? '')) {
        return 'curl:--proto-default';
      }
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      // A short cluster's value letter takes the rest of it, or else the next argument.
      const letters = [...arg.slice(1)];
      const valueAt = letters.findIndex((letter) => CURL_SHORT_VALUES.has(letter));
      if (valueAt === letters.length - 1) index++;
      continue;
    }
    if (isNonHttpUrl(arg)) return 'curl:url-scheme';
  }
  return undefined;
}

function isNonHttpUrl(value: string): boolean {
  const head = value.split('/', 1)[0] ?? '';
  if (/[{}[\]]/.test(head)) return true;
  // curl takes `name:` as a scheme when `/` follows (else `localhost:8080` is host:port); a
  // scheme curl knows counts even without the slash.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):(\/)?/.exec(value);
  if (scheme === null) return false;
  const name = (scheme[1] ?? '').toLowerCase();
  if (name === 'http' || name === 'https') return false;
  return scheme[2] !== undefined || CURL_SCHEMES.has(name);
}

const CURL_SCHEMES: ReadonlySet<string> = new Set(
  `file dict ftp ftps gopher gophers imap imaps ldap ldaps mqtt pop3 pop3s rtmp rtmps rtsp scp
  sftp smb smbs smtp smtps telnet tftp ws wss ipfs ipns`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

/** curl's short options that take a value (the rest of the cluster, or the next argument). */
export const CURL_SHORT_VALUES: ReadonlySet<string> = new Set(
  'dHXuAeFmxbrwEyYzoKTDcUQtCP'.split(''),
);

// Long options whose value is the next argument, so it is not read as a URL operand.
const CURL_URL_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  'url',
  'preproxy',
  'socks5',
  'socks5-hostname',
  'proxy-user',
  'doh-url',
  'noproxy',
  'proto-default',
  'data',
  'data-raw',
  'data-binary',
  'data-ascii',
  'data-urlencode',
  'json',
  'form',
  'form-string',
  'header',
  'proxy-header',
  'user',
  'user-agent',
  'referer',
  'request',
  'proxy',
  'resolve',
  'connect-to',
  'max-time',
  'connect-timeout',
  'retry',
  'write-out',
  'cookie',
  'url-query',
  'variable',
  'cacert',
  'cert',
  'key',
  'range',
  'interface',
  'oauth2-bearer',
]);

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
