import { Command, CommanderError } from 'commander';
import { registerCall } from './commands/call.js';
import type { CliIo } from './commands/cli-io.js';
import { registerConfig } from './commands/config-approve.js';
import { describeFailure } from './commands/describe-failure.js';
import { registerDoctor } from './commands/doctor.js';
import { registerExplain } from './commands/explain.js';
import { registerInit } from './commands/init.js';
import { registerJournal } from './commands/journal.js';
import { detectInteraction } from './commands/interaction.js';
import { printFailure } from './commands/print-failure.js';
import { registerServe } from './commands/serve.js';
import { registerTools } from './commands/tools.js';
import { ConfigNotApprovedError } from './config/config-not-approved-error.js';
import { offerConfigApproval } from './config/offer-config-approval.js';
import { EXIT_CODES } from './exit-codes.js';

/** Runs the `toolhost` command line and resolves to the process exit code; never exits itself. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  return run(argv, io, { mayOfferConfigApproval: true });
}

async function run(
  argv: readonly string[],
  io: CliIo,
  options: { readonly mayOfferConfigApproval: boolean },
): Promise<number> {
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
      'unknown tool, 5 unavailable here, 6 effect unresolved (see toolhost journal),',
      '130 cancelled (Ctrl-C).',
      'Config: toolhost.config.json in the root (--config to choose); flags override it.',
      'A config found in the root is used only once approved: toolhost init, toolhost config approve.',
    ].join('\n'),
  );
  registerCall(program, io, setExit);
  registerTools(program, io, setExit);
  registerExplain(program, io, setExit);
  registerInit(program, io, setExit);
  registerDoctor(program, io, setExit);
  registerServe(program, io, setExit);
  registerConfig(program, io, setExit);
  registerJournal(program, io, setExit);
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; every other parse failure is a usage error.
      return error.exitCode === 0 ? EXIT_CODES.success : EXIT_CODES.usage;
    }
    if (
      options.mayOfferConfigApproval &&
      error instanceof ConfigNotApprovedError &&
      (await offerOnTerminal(error, argv, io))
    ) {
      // Every command loads its config before anything else, so nothing ran: start over, once,
      // on the bytes just approved (a file changed since is refused again).
      return run(argv, io, { mayOfferConfigApproval: false });
    }
    const report = describeFailure(error);
    printFailure(io, argv.includes('--json'), report);
    return report.exitCode;
  }
}

// Asked only where a human is: the same rule as an approval prompt (terminals, no --json, no CI,
// stdin not carrying arguments); anywhere else the refusal stands.
async function offerOnTerminal(
  error: ConfigNotApprovedError,
  argv: readonly string[],
  io: CliIo,
): Promise<boolean> {
  const interaction = detectInteraction(io, {
    json: argv.includes('--json'),
    stdinUsed: argv.includes('-'),
  });
  if (interaction.prompter === undefined) return false;
  return offerConfigApproval(error, { input: io.stdin, output: io.stderr });
}
