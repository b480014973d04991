import type { CliIo } from './cli-io.js';

/** An abort signal raised by the first Ctrl-C / SIGTERM; `dispose` restores default handling. */
export interface InterruptTrap {
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * First SIGINT/SIGTERM aborts the dispatch so the host kills its children and settles; a second
 * one exits at once (the user insists) after saying children may be left running.
 */
export function trapInterrupts(io: CliIo): InterruptTrap {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      io.stderr.write('toolhost: interrupted again; exiting without waiting for cleanup\n');
      process.exit(130);
    }
    io.stderr.write(
      `\ntoolhost: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}; cancelling…\n`,
    );
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
