import { EXIT_CODES } from './exit-codes.js';

/** A usage or configuration problem found before anything ran; exits with `EXIT_CODES.usage`. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
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
