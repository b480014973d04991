import type { ApprovalPrompter } from '../approval/approval-prompter.js';
import { createTtyPrompter } from '../approval/tty-prompter.js';
import type { CliIo } from './cli-io.js';

/** Whether a human can be asked, and if not, why (for the refusal message). */
export type Interaction =
  | { readonly prompter: ApprovalPrompter }
  | { readonly prompter?: undefined; readonly reason: string };

/**
 * A human is reachable only with a TTY on both stdin and stderr, no `--json`, stdin not already
 * used for arguments and not under CI: anything else must never hang waiting for an answer.
 */
export function detectInteraction(
  io: CliIo,
  options: { readonly json: boolean; readonly stdinUsed: boolean },
): Interaction {
  if (options.json) return { reason: '--json output is non-interactive' };
  if (isCi(io.env)) return { reason: 'CI is set (non-interactive)' };
  if (options.stdinUsed) return { reason: 'stdin carries the arguments' };
  if (io.stdin.isTTY !== true || io.stderr.isTTY !== true) {
    return { reason: 'there is no terminal to ask' };
  }
  return { prompter: createTtyPrompter({ input: io.stdin, output: io.stderr }) };
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env['CI'];
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
