import path from 'node:path';
import type { ToolRegistry } from '@toolhost/core';
import type { CliIo } from '../commands/cli-io.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { describeProcessFloors } from '../session/describe-process-floors.js';
import { ApprovalBroker } from './approval-broker.js';
import { UiEventHub } from './ui-event-hub.js';
import { describeUiPolicy } from './ui-policy-view.js';
import { createUiRunWatcher } from './ui-run-watcher.js';
import { startUiServer } from './ui-server.js';
import { UiSessionTable } from './ui-session-table.js';
import { writeUiUrlFile } from './ui-url-file.js';

/** Options of `startServeUi`. */
export interface ServeUiOptions {
  readonly settings: EffectiveSettings;
  readonly io: Pick<CliIo, 'stderr'>;
  readonly port?: number;
  /** A pending approval nobody answers is denied after this. */
  readonly approvalTimeoutMs: number;
}

/** What `serve` hands the MCP server so its runs report to the page and wait for it. */
export interface ServeUi {
  readonly url: string;
  readonly approvalBroker: ApprovalBroker;
  /** Wraps each run's (audited, traced) registry so its calls reach the page. */
  wrapRegistry(registry: ToolRegistry): ToolRegistry;
  /** A run closed. */
  runClosed(registry: object): void;
  /** The page's session id of a wrapped run registry, for its approvals to wait under. */
  sessionIdOf(registry: object): string | undefined;
  /** Denies what is still pending, then stops the page's server. */
  close(): Promise<void>;
}

/** Starts `serve --ui`'s control tower and prints its URL (a secret: it approves calls). */
export async function startServeUi(options: ServeUiOptions): Promise<ServeUi> {
  const { settings } = options;
  const hub = new UiEventHub();
  const sessions = new UiSessionTable();
  const approvalBroker = new ApprovalBroker({ timeoutMs: options.approvalTimeoutMs });
  const watcher = createUiRunWatcher({
    hub,
    sessions,
    spillDirectory: path.join(settings.stateDir, 'spill'),
  });
  const policy = describeUiPolicy(settings, await describeProcessFloors(settings));
  const server = await startUiServer({
    hub,
    sessions,
    broker: approvalBroker,
    policy,
    source: 'serve',
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  options.io.stderr.write(`toolhost ui: ${server.url}\n`);
  const removeUrlFile = await recordUrl(settings.stateDir, server.url, options.io);
  return {
    url: server.url,
    approvalBroker,
    wrapRegistry: (registry) => watcher.wrap(registry),
    runClosed: (registry) => watcher.ended(registry),
    sessionIdOf: (registry) => watcher.sessionIdOf(registry),
    close: async () => {
      // First: from here on `toolhost ui` says no page is running rather than offering this one.
      await removeUrlFile().catch(() => undefined);
      approvalBroker.close();
      await server.close();
    },
  };
}

// For `toolhost ui`: over stdio the stderr line above may land where nobody reads it. A file
// that cannot be written costs only that shortcut, so it is said, never fatal.
async function recordUrl(
  stateDir: string,
  url: string,
  io: Pick<CliIo, 'stderr'>,
): Promise<() => Promise<void>> {
  const none = async () => undefined;
  try {
    const remove = await writeUiUrlFile(stateDir, { url, pid: process.pid });
    if (remove !== undefined) return remove;
    io.stderr.write(
      'toolhost ui: another serve --ui on this state dir owns its ui-url file; `toolhost ui` opens that one\n',
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unwritable';
    io.stderr.write(`toolhost ui: cannot write ui-url in the state dir (${code})\n`);
  }
  return none;
}
