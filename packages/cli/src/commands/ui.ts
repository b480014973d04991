import path from 'node:path';
import type { Command } from 'commander';
import { CliUsageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from './cli-io.js';

/** `toolhost ui --audit-log <file>`: the control tower over an existing audit log, read-only. */
export function registerUi(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('ui')
    .description(
      'serve the control tower over an audit log on 127.0.0.1 (read-only: follows appends, takes no approvals)',
    )
    .requiredOption('--audit-log <file>', 'the JSON-lines audit log to show')
    .option('--ui-port <n>', "the page's port on 127.0.0.1 (default: a free port)")
    .action(async (options: { readonly auditLog: string; readonly uiPort?: string }) => {
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
