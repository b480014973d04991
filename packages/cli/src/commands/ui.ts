import path from 'node:path';
import type { Command } from 'commander';
import { CliUsageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from './cli-io.js';

interface UiOptions {
  readonly auditLog?: string;
  readonly uiPort?: string;
  readonly stateDir?: string;
}

/**
 * `toolhost ui`: prints the URL of the running `serve --ui` page (read from its state dir);
 * `toolhost ui --audit-log <file>`: the control tower over an existing audit log, read-only.
 */
export function registerUi(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('ui')
    .description(
      'print the URL of the running serve --ui page; with --audit-log, serve a read-only control tower over that log on 127.0.0.1',
    )
    .option(
      '--audit-log <file>',
      'the JSON-lines audit log to show (follows appends, no approvals)',
    )
    .option(
      '--ui-port <n>',
      "with --audit-log: the page's port on 127.0.0.1 (default: a free port)",
    )
    .option('--state-dir <dir>', "the state dir of the serve --ui to find (default: toolhost's)")
    .action(async (options: UiOptions) => {
      if (options.auditLog === undefined) {
        if (options.uiPort !== undefined) throw new CliUsageError('--ui-port needs --audit-log');
        // Loaded lazily: the audit-log page never needs the config machinery.
        const { stateDirFromOptions } = await import('./policy-options.js');
        const { showRunningUi } = await import('./show-running-ui.js');
        await showRunningUi(io, stateDirFromOptions(options, io));
        setExit(EXIT_CODES.success);
        return;
      }
      const file = path.resolve(io.cwd, options.auditLog);
      const port = toPort(options.uiPort);
      // Loaded lazily: Hono and the page are paid for only here and by `serve --ui`.
      const { serveAuditLogUi } = await import('../ui/serve-audit-log-ui.js');
      await serveAuditLogUi({ file, io, ...(port === undefined ? {} : { port }) });
      setExit(EXIT_CODES.success);
    });
}

function toPort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/u.test(value) || port > 65_535)
    throw new CliUsageError('--ui-port takes a port number between 0 and 65535');
  return port;
}
