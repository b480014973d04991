import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import {
  boundedRecord,
  MAX_ARGUMENTS,
  MAX_COMMAND_LENGTH,
  MAX_NAME_LENGTH,
  MAX_TEXT_LENGTH,
  pathString,
} from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';
import { toProcessOutcome } from './process-outcome.js';

const ID = 'run_command';

/** Longest wall-clock budget a config may ask for (the spec's 10 min process maximum). */
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

/** Runs one allowlisted command without a shell. */
export const runCommandTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Run one allowlisted program with arguments (no shell: pipes, globs and redirects are not interpreted). Returns the exit code, stdout and stderr.',
  args: z.strictObject({
    command: z
      .string()
      .min(1)
      .max(MAX_COMMAND_LENGTH)
      .describe('The program to run, e.g. "npm" or "ls".'),
    args: z
      .array(z.string().max(MAX_COMMAND_LENGTH))
      .max(MAX_ARGUMENTS)
      .optional()
      .describe('Arguments passed to the program, one array item per argument.'),
    cwd: pathString('Working directory relative to the workspace root.').optional(),
    timeoutMs: z.int().min(1).max(MAX_COMMAND_TIMEOUT_MS).optional(),
    env: boundedRecord(
      // A name the host could not pass through unambiguously (`=`, NUL) is refused here.
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .max(MAX_NAME_LENGTH),
      z.string().max(MAX_TEXT_LENGTH),
      64,
    ).optional(),
  }),
  // The working directory, budget and environment are the author's: a model choosing them could
  // escape the allowlist's intent (run in another tree, lift the timeout, set LD_PRELOAD).
  configOnlyParams: ['cwd', 'timeoutMs', 'env'],
  policy: {
    fsScoped: false,
    spawnsProcess: true,
    requiresGateApproval: false,
    // The model picks the program: it may change or delete anything the sandbox lets it.
    effect: { readOnly: false, destructive: true, idempotent: false },
  },
  policyTarget: (args) => {
    const argv = [args.command, ...(args.args ?? [])];
    return { command: argv.join(' '), argv };
  },
  async dispatch(args, host, ctx) {
    const processArm = requireArmBeforeEffect(ID, host.process, 'process');
    const result = await processArm.spawn(
      args.command,
      args.args ?? [],
      args.env ?? {},
      dropUndefined({
        cwd: args.cwd,
        timeoutMs: args.timeoutMs,
        hostCallOptions: ctx.hostCallOptions,
      }),
      ctx.signal,
    );
    return toProcessOutcome(ID, result);
  },
});
