import { Command, CommanderError } from 'commander';
import { registerCall } from './commands/call.js';
import type { CliIo } from './commands/cli-io.js';
import { describeFailure } from './commands/describe-failure.js';
import { registerDoctor } from './commands/doctor.js';
import { registerExplain } from './commands/explain.js';
import { registerInit } from './commands/init.js';
import { printFailure } from './commands/print-failure.js';
import { registerServe } from './commands/serve.js';
import { registerTools } from './commands/tools.js';
import { EXIT_CODES } from './exit-codes.js';

/** Runs the `toolhost` command line and resolves to the process exit code; never exits itself. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT_CODES.success;
  const setExit = (code: number): void => {
    exitCode = code;
  };
  const program = new Command('toolhost')
    .description('the safe tool-execution layer for LLM agents')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError('(run toolhost help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  program.addHelpText(
    'after',
    [
      '',
      'Exit codes: 0 ok, 1 tool failed, 2 usage/config error, 3 denied, 4 invalid args or',
      'unknown tool, 5 unavailable here, 130 cancelled (Ctrl-C).',
      'Config: toolhost.config.json in the root (--config to choose); flags override it.',
    ].join('\n'),
  );
  registerCall(program, io, setExit);
  registerTools(program, io, setExit);
  registerExplain(program, io, setExit);
  registerInit(program, io, setExit);
  registerDoctor(program, io, setExit);
  registerServe(program, io, setExit);
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; every other parse failure is a usage error.
      return error.exitCode === 0 ? EXIT_CODES.success : EXIT_CODES.usage;
    }
    const report = describeFailure(error);
    printFailure(io, argv.includes('--json'), report);
    return report.exitCode;
  }
}
