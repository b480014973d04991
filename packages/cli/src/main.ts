import { redactText } from '@toolhost/core/redact';
import { Command, CommanderError } from 'commander';
import type { CliIo } from './commands/cli-io.js';
import { describeFailure } from './commands/describe-failure.js';
import { printFailure } from './commands/print-failure.js';
import { ConfigNotApprovedError } from './config/config-not-approved-error.js';
import { debugError } from './debug-log.js';
import { EXIT_CODES } from './exit-codes.js';

type Register = (program: Command, io: CliIo, setExit: (code: number) => void) => void;

// Each command's module (and what it pulls in: the host, the MCP SDK, the sandbox probe) loads
// only when that command runs; help, version and a mistyped command load them all.
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  call: async () => (await import('./commands/call.js')).registerCall,
  tools: async () => (await import('./commands/tools.js')).registerTools,
  explain: async () => (await import('./commands/explain.js')).registerExplain,
  init: async () => (await import('./commands/init.js')).registerInit,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  config: async () => (await import('./commands/config-approve.js')).registerConfig,
  journal: async () => (await import('./commands/journal.js')).registerJournal,
  ui: async () => (await import('./commands/ui.js')).registerUi,
};

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
      // A parse error quotes the argument it could not place, which may be a secret.
      writeErr: (text) => io.stderr.write(redactText(text)),
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
  try {
    for (const register of await commandsFor(argv)) register(program, io, setExit);
    for (const command of program.commands) command.exitOverride();
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
    // The detail an operator needs (stack, cause chain) only when asked: never in the message.
    debugError(`toolhost ${report.code} failure`, error);
    printFailure(io, argv.includes('--json'), report);
    return report.exitCode;
  }
}

// The command is the first word: toolhost has no global options but --help and --version.
function commandsFor(argv: readonly string[]): Promise<Register[]> {
  const first = argv[0];
  const load = first !== undefined && Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  return Promise.all(load === undefined ? Object.values(COMMANDS).map((each) => each()) : [load()]);
}

// Asked only where a human is: the same rule as an approval prompt (terminals, no --json, no CI,
// stdin not carrying arguments); anywhere else the refusal stands.
async function offerOnTerminal(
  error: ConfigNotApprovedError,
  argv: readonly string[],
  io: CliIo,
): Promise<boolean> {
  const { detectInteraction } = await import('./commands/interaction.js');
  const { offerConfigApproval } = await import('./config/offer-config-approval.js');
  const interaction = detectInteraction(io, {
    json: argv.includes('--json'),
    stdinUsed: argv.includes('-'),
  });
  if (interaction.prompter === undefined) return false;
  return offerConfigApproval(error, { input: io.stdin, output: io.stderr });
}
