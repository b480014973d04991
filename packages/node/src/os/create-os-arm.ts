import path from 'node:path';
import type { AbortSignalLike, OsCapability } from '@toolhost/core/host';
import { ToolExecutionError } from '@toolhost/core';
import { refusedBeforeEffect } from '@toolhost/core/host';
import { BASE_ENV_NAMES } from '../process/build-child-env.js';
import { isExecutableFile } from '../process/resolve-executable.js';
import { runHelper } from './run-helper.js';

/** Options of the Node OS arm. */
export interface OsArmOptions {
  /** PATH for finding helpers, and the display/session variables they need. Default `process.env`. */
  readonly hostEnv?: Readonly<Record<string, string | undefined>>;
  /** Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** Per helper call (10 s). */
  readonly timeoutMs?: number;
  /** Clipboard text cap (1 MiB). */
  readonly maxClipboardBytes?: number;
}

export const OS_HELPER_TIMEOUT_MS = 10_000;
export const MAX_CLIPBOARD_BYTES = 1024 * 1024;

// What the helpers need to reach the user's session, on top of the process arm's base list.
const SESSION_ENV_NAMES = [
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XDG_RUNTIME_DIR',
  'DBUS_SESSION_BUS_ADDRESS',
  'XAUTHORITY',
];

/**
 * The clipboard and notification arm. Helpers are found on the host's PATH; model text only ever
 * travels as argv data after `--` (or as an AppleScript run-handler argument), never through a
 * shell or a script string. No helper → `ToolExecutionError` reason `not_found`.
 */
export function createOsArm(options: OsArmOptions = {}): OsCapability {
  const {
    hostEnv = process.env,
    platform = process.platform,
    timeoutMs = OS_HELPER_TIMEOUT_MS,
    maxClipboardBytes = MAX_CLIPBOARD_BYTES,
  } = options;
  if (!(timeoutMs > 0)) throw new TypeError('toolhost: os timeoutMs must be positive');
  if (!(maxClipboardBytes > 0)) throw new TypeError('toolhost: maxClipboardBytes must be positive');
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV_NAMES, ...SESSION_ENV_NAMES]) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  const searchPath = env['PATH'] ?? '';

  return {
    async readClipboard(signal?: AbortSignalLike): Promise<string> {
      const candidates: [string, string[]][] =
        platform === 'darwin'
          ? [['pbpaste', []]]
          : [
              ...(env['WAYLAND_DISPLAY'] === undefined
                ? []
                : [['wl-paste', ['--no-newline']] as [string, string[]]]),
              ['xclip', ['-selection', 'clipboard', '-o']],
              ['xsel', ['--clipboard', '--output']],
            ];
      const [file, args] = await firstHelper(candidates, searchPath, 'read_clipboard');
      return runHelper({
        toolId: 'read_clipboard',
        file,
        args,
        env,
        timeoutMs,
        maxBytes: maxClipboardBytes,
        signal,
      });
    },

    async notify(notification, signal?: AbortSignalLike) {
      const { title, body } = notification;
      const candidates: [string, string[]][] =
        platform === 'darwin'
          ? [
              [
                'osascript',
                [
                  '-e',
                  'on run argv',
                  '-e',
                  'display notification (item 2 of argv) with title (item 1 of argv)',
                  '-e',
                  'end run',
                  '--',
                  title,
                  body,
                ],
              ],
            ]
          : [['notify-send', ['--', title, body]]];
      const [file, args] = await firstHelper(candidates, searchPath, 'notify');
      await runHelper({
        toolId: 'notify',
        file,
        args,
        env,
        timeoutMs,
        maxBytes: 64 * 1024,
        signal,
      });
      return { delivered: true } as const;
    },
  };
}

async function firstHelper(
  candidates: readonly [string, string[]][],
  searchPath: string,
  toolId: string,
): Promise<[string, string[]]> {
  for (const [name, args] of candidates) {
    for (const directory of searchPath.split(path.delimiter)) {
      // Relative PATH entries would search wherever the host happens to run.
      if (!path.isAbsolute(directory)) continue;
      const file = path.join(directory, name);
      if (await isExecutableFile(file)) return [file, args];
    }
  }
  // No helper found: nothing ran, so a journaled notify may be delivered once one is installed.
  throw refusedBeforeEffect(new ToolExecutionError(toolId, 'not_found'));
}
