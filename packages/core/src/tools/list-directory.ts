import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArm } from '../dispatch/require-arm.js';
import { MAX_PATH_LENGTH, pathString } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';

const ID = 'list_directory';

/** Lists a directory inside the workspace, optionally recursively and filtered by a glob. */
export const listDirectoryTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'List the entries of a directory inside the workspace with their type, size and modification time. Set recursive to walk subdirectories and glob to filter names.',
  args: z.strictObject({
    path: pathString('Directory path relative to the workspace root ("." for the root).'),
    recursive: z.boolean().optional().describe('Include entries of subdirectories.'),
    glob: z
      .string()
      .min(1)
      .max(MAX_PATH_LENGTH)
      .optional()
      .describe('Only list entries whose relative name matches this glob.'),
  }),
  policy: { fsScoped: true, spawnsProcess: false, requiresGateApproval: false },
  policyTarget: (args) => ({ path: args.path }),
  async dispatch(args, host, ctx) {
    const fs = requireArm(ID, host.fs, 'fs');
    const listing = await fs.listDirectory(dropUndefined(args), ctx.signal);
    return listing.truncated === undefined
      ? { entries: listing.entries }
      : { entries: listing.entries, truncated: listing.truncated };
  },
});
