import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { refusedBeforeEffect, ToolUnavailableError } from '../errors.js';
import { pathString } from './arg-bounds.js';

const ID = 'create_directory';

/** Creates a directory and its missing parents inside the workspace; an existing one is kept. */
export const createDirectoryTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Create a directory inside the workspace, with any missing parent directories. An existing directory is left as it is and reported with created false.',
  args: z.strictObject({
    path: pathString('Directory path relative to the workspace root.'),
  }),
  policy: {
    fsScoped: true,
    fsWrite: true,
    spawnsProcess: false,
    requiresGateApproval: false,
    // Only adds: an existing directory is kept as it is, so a repeat changes nothing.
    effect: { readOnly: false, destructive: false, idempotent: true },
  },
  policyTarget: (args) => ({ path: args.path }),
  async dispatch(args, host, ctx) {
    const fs = requireArmBeforeEffect(ID, host.fs, 'fs');
    // A read-only host omits makeDirectory: a host gap, not something the model can fix.
    if (fs.makeDirectory === undefined) {
      throw refusedBeforeEffect(new ToolUnavailableError(ID, 'fs.makeDirectory'));
    }
    const made = await fs.makeDirectory({ path: args.path }, ctx.signal);
    return { path: made.path, created: made.created };
  },
});
