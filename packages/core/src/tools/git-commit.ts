import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { markCommandPinned } from '../policy/pinned-process-tools.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { refusedBeforeEffect, ToolPolicyError } from '../errors.js';
import { MAX_ARGUMENTS, MAX_PATH_LENGTH, MAX_TEXT_LENGTH } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';
import { GIT_NO_REPO_PROGRAMS } from './git-no-repo-programs.js';
import { toProcessOutcome } from './process-outcome.js';

const ID = 'git_commit';

/** Commits already-tracked changes after a human gate; never stages anything itself. */
export const gitCommitTool = markCommandPinned(
  defineTool({
    id: ID,
    source: 'builtin',
    description:
      'Create a git commit with the given message, limited to the listed files when given. Requires human approval and never stages new files.',
    args: z.strictObject({
      message: z.string().min(1).max(MAX_TEXT_LENGTH).describe('The commit message.'),
      files: z
        .array(
          z
            .string()
            .min(1)
            .max(MAX_PATH_LENGTH)
            // Belt and braces with the `--` below: a leading dash is never a file a model meant.
            .refine((file) => !file.startsWith('-'), { message: 'leading_dash' }),
        )
        .max(MAX_ARGUMENTS)
        .optional()
        .describe('Pathspecs to commit; none may start with "-".'),
    }),
    policy: {
      fsScoped: false,
      spawnsProcess: true,
      requiresGateApproval: true,
      // A commit adds history and never touches the working tree (no hooks run); a repeat
      // commits again or fails on nothing to commit.
      effect: { readOnly: false, destructive: false, idempotent: false },
    },
    async dispatch(args, host, ctx) {
      // The registry refuses first; this keeps the floor if the def is ever dispatched directly.
      if (!ctx.gateApproved) throw refusedBeforeEffect(new ToolPolicyError(ID, 'gate_required'));
      const processArm = requireArmBeforeEffect(ID, host.process, 'process');
      // `--` makes every file a pathspec, so no file name can become an option.
      // `--no-verify` and `--no-gpg-sign` say it twice: hooks and signing are the repository's.
      const argv = [
        ...GIT_NO_REPO_PROGRAMS,
        'commit',
        '--no-verify',
        '--no-gpg-sign',
        '-m',
        args.message,
        '--',
        ...(args.files ?? []),
      ];
      const result = await processArm.spawn(
        'git',
        argv,
        {},
        dropUndefined({ hostCallOptions: ctx.hostCallOptions }),
        ctx.signal,
      );
      return toProcessOutcome(ID, result);
    },
  }),
);
