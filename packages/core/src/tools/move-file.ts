import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { refusedBeforeEffect, ToolUnavailableError } from '../errors.js';
import { pathString } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';

const ID = 'move_file';

/** Moves or renames a file or directory inside the workspace; never replaces unless asked. */
export const moveFileTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Move or rename a file or directory inside the workspace, creating missing parent directories of the destination. An existing destination is refused unless overwrite is true.',
  args: z.strictObject({
    source: pathString('Path of the file or directory to move, relative to the workspace root.'),
    destination: pathString('Its new path, relative to the workspace root.'),
    overwrite: z
      .boolean()
      .optional()
      .describe('Replace an existing file (or empty directory) at the destination.'),
  }),
  policy: {
    fsScoped: true,
    fsWrite: true,
    spawnsProcess: false,
    requiresGateApproval: false,
    // `overwrite` replaces the destination; a repeat finds the source gone.
    effect: { readOnly: false, destructive: true, idempotent: false },
  },
  // Both ends are writes: the approver sees where the entry comes from and where it goes.
  policyTarget: (args) => ({ path: args.source, destination: args.destination }),
  async dispatch(args, host, ctx) {
    const fs = requireArmBeforeEffect(ID, host.fs, 'fs');
    // A read-only host omits moveFile: a host gap, not something the model can fix.
    if (fs.moveFile === undefined) {
      throw refusedBeforeEffect(new ToolUnavailableError(ID, 'fs.moveFile'));
    }
    const moved = await fs.moveFile(dropUndefined(args), ctx.signal);
    return {
      source: moved.source,
      destination: moved.destination,
      overwritten: moved.overwritten,
    };
  },
});
