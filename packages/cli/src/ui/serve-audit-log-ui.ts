import { access, constants } from 'node:fs/promises';
import { CliUsageError } from '../cli-error.js';
import type { CliIo } from '../commands/cli-io.js';
import { followAuditLog } from './follow-audit-log.js';
import { UiEventHub } from './ui-event-hub.js';
import { auditLogPolicy } from './ui-policy-view.js';
import { startUiServer } from './ui-server.js';

/**
 * `toolhost ui`: the page over an audit log until SIGINT/SIGTERM. Read-only: no broker, so no
 * route can approve anything, and no spills (they lived and died with their runs).
 */
export async function serveAuditLogUi(options: {
  readonly file: string;
  readonly io: Pick<CliIo, 'stderr'>;
  readonly port?: number;
}): Promise<void> {
  await access(options.file, constants.R_OK).catch((error: unknown) => {
    throw new CliUsageError('--audit-log: cannot read the audit log', { cause: error });
  });
  const hub = new UiEventHub();
  const followed = followAuditLog(options.file, hub);
  try {
    await followed.caughtUp;
    const server = await startUiServer({
      hub,
      policy: auditLogPolicy(options.file),
      source: 'audit',
      ...(options.port === undefined ? {} : { port: options.port }),
    }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      throw new CliUsageError(
        `port ${options.port ?? 0} on 127.0.0.1 is already in use; pick another with --ui-port <n>`,
        { cause: error },
      );
    });
    options.io.stderr.write(`toolhost ui: ${server.url}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop).off('SIGTERM', stop);
        resolve();
      };
      process.once('SIGINT', stop).once('SIGTERM', stop);
    });
    await server.close();
  } finally {
    followed.close();
  }
}
