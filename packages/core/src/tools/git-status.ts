import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { markCommandPinned } from '../policy/pinned-process-tools.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { MAX_ARGUMENTS, MAX_COMMAND_LENGTH } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';
import { GIT_NO_REPO_PROGRAMS } from './git-no-repo-programs.js';
import { toProcessOutcome } from './process-outcome.js';
import { READ_ONLY_EFFECT } from './tool-effects.js';

const ID = 'git_status';

// A repository's own config is not the author's (see GIT_NO_REPO_PROGRAMS), and `diff.external`
// / textconv drivers run programs on `log -p` and `diff`.
const DIFF_GUARDS = {
  status: [],
  log: ['--no-ext-diff', '--no-textconv'],
  diff: ['--no-ext-diff', '--no-textconv'],
} as const;

/** Read-only git inspection: the model picks the subcommand, the author picks every flag. */
export const gitStatusTool = markCommandPinned(
  defineTool({
    id: ID,
    source: 'builtin',
    description:
      'Inspect the git repository of the workspace: "status" (default), "log" or "diff". Flags are fixed by the configuration.',
    args: z.strictObject({
      command: z
        .enum(['status', 'log', 'diff'])
        .default('status')
        .describe('The read-only git subcommand to run.'),
      // Config-only: a model-chosen `--output`, `--ext-diff`, `--no-index` or `-c` would write
      // files, run programs or read outside the repository.
      args: z.array(z.string().max(MAX_COMMAND_LENGTH)).max(MAX_ARGUMENTS).optional(),
    }),
    configOnlyParams: ['args'],
    // No policy target: the command is fixed to git's read-only subcommands (pre-approved).
    // Not journaled: it spawns, but a read-only inspection is safe to repeat on a replay.
    policy: {
      fsScoped: false,
      spawnsProcess: true,
      requiresGateApproval: false,
      journal: 'none',
      // Fixed read-only subcommands with --no-optional-locks: not even the index is refreshed.
      effect: READ_ONLY_EFFECT,
    },
    async dispatch(args, host, ctx) {
      const processArm = requireArmBeforeEffect(ID, host.process, 'process');
      const result = await processArm.spawn(
        'git',
        [
          ...GIT_NO_REPO_PROGRAMS,
          // Read-only: a status that refreshes the stat cache would otherwise rewrite the index.
          '--no-optional-locks',
          args.command,
          ...DIFF_GUARDS[args.command],
          ...(args.args ?? []),
        ],
        {},
        dropUndefined({ hostCallOptions: ctx.hostCallOptions }),
        ctx.signal,
      );
      return toProcessOutcome(ID, result);
    },
  }),
);
