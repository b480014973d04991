import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import type { DirectoryListing } from '../tool-host.js';
import { withModelView } from '../with-model-view.js';
import { MAX_PATH_LENGTH, pathString } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';
import { listingModelText } from './list-directory-text.js';
import { READ_ONLY_EFFECT } from './tool-effects.js';

const ID = 'list_directory';
/** Longest cursor accepted: one names a position by an entry path, so a path's bound and some. */
export const MAX_CURSOR_LENGTH = 4 * MAX_PATH_LENGTH;

/** Lists a directory inside the workspace, optionally recursively and filtered by a glob. */
export const listDirectoryTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'List a directory inside the workspace, one line per entry (directories end in "/") with the total count; recursive walks breadth-first, glob filters names, and .git and node_modules are skipped unless includeIgnored is true or the path names them. A cut listing ends with a cursor: call again with the same arguments and that cursor for the next page; later pages list the entries as of the first page (one removed since is skipped, one added since needs a fresh listing).',
  args: z.strictObject({
    path: pathString('Directory path relative to the workspace root ("." for the root).'),
    recursive: z.boolean().optional().describe('Include entries of subdirectories.'),
    glob: z
      .string()
      .min(1)
      .max(MAX_PATH_LENGTH)
      .optional()
      .describe('Only list entries whose relative name matches this glob.'),
    includeIgnored: z
      .boolean()
      .optional()
      .describe('Also list .git and node_modules (skipped by default).'),
    cursor: z
      .string()
      .min(1)
      .max(MAX_CURSOR_LENGTH)
      .optional()
      .describe(
        "The cursor a cut listing returned: continues after its last entry, from the first page's snapshot.",
      ),
  }),
  policy: {
    fsScoped: true,
    spawnsProcess: false,
    requiresGateApproval: false,
    // A cursor's snapshot is the host's cache, not a change a client could see.
    effect: READ_ONLY_EFFECT,
  },
  policyTarget: (args) => ({ path: args.path }),
  async dispatch(args, host, ctx) {
    const fs = requireArmBeforeEffect(ID, host.fs, 'fs');
    const listing = await fs.listDirectory(dropUndefined(args), ctx.signal);
    // Workflow state keeps the spec's `{ entries }` whole; the model reads the compact text.
    return withModelView(stateOf(listing), listingModelText(listing, args.recursive === true));
  },
});

function stateOf(listing: DirectoryListing): DirectoryListing {
  const { entries, truncated, total, totalExact, cursor, ignored } = listing;
  return dropUndefined({ entries, truncated, total, totalExact, cursor, ignored });
}
