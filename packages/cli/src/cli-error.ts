import { safeToolName } from './commands/safe-tool-name.js';
import { EXIT_CODES } from './exit-codes.js';

/** A usage or configuration problem found before anything ran; exits with `EXIT_CODES.usage`. */
export class CliUsageError extends Error {
  override readonly name: string = 'CliUsageError';
  readonly exitCode: number = EXIT_CODES.usage;
}

/** A command refused without any dispatch error (e.g. `explain` found a refusal). */
export class CliExitError extends Error {
  override readonly name = 'CliExitError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/**
 * The grant (`--tools` or the config's `tools`) names ids no registered tool has: a typo would
 * otherwise serve fewer tools than asked, silently. Built-ins and discovered MCP tools are known.
 */
export class UnknownGrantError extends CliUsageError {
  override readonly name = 'UnknownGrantError';
  constructor(
    readonly unknownIds: readonly string[],
    readonly knownIds: readonly string[],
    source: 'flag' | 'config' | 'default',
  ) {
    const where = source === 'flag' ? '--tools' : '"tools" in the config';
    // Ids the user typed are echoed only when they are plainly identifiers.
    super(
      `${where} names ${unknownIds.length === 1 ? 'an unknown tool' : 'unknown tools'}: ${unknownIds.map(safeToolName).join(', ')}; available: ${knownIds.join(', ')}`,
    );
  }
}
