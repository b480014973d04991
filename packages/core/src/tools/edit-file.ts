import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { refusedBeforeEffect, ToolUnavailableError } from '../errors.js';
import { withModelView } from '../with-model-view.js';
import { MAX_CONTENT_LENGTH, pathString } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';

const ID = 'edit_file';
/** Most edits one call carries. */
export const MAX_EDITS = 100;

const edit = z.strictObject({
  oldText: z
    .string()
    .min(1)
    .max(MAX_CONTENT_LENGTH)
    .describe('The exact text to replace, including whitespace; enough lines to be unique.'),
  newText: z
    .string()
    .max(MAX_CONTENT_LENGTH)
    .describe('The replacement text; empty deletes oldText.'),
  replaceAll: z
    .boolean()
    .optional()
    .describe('Replace every occurrence instead of requiring exactly one.'),
});

/** Replaces exact text in a file, all edits or none, and returns the diff; `dryRun` only previews. */
export const editFileTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Edit a text file inside the workspace by exact replacement: each oldText must occur exactly once (or set replaceAll), and the edits apply in order, all or none. Returns a unified diff of the change; with dryRun true nothing is written.',
  args: z.strictObject({
    path: pathString('File path relative to the workspace root.'),
    edits: z
      .array(edit)
      .min(1)
      .max(MAX_EDITS)
      // One call may not carry more text than two whole files: an unbounded sum is a DoS.
      .refine((edits) => totalLength(edits) <= 2 * MAX_CONTENT_LENGTH, { message: 'too_big' })
      .describe('Replacements applied in order; a later edit sees the text earlier ones made.'),
    dryRun: z.boolean().optional().describe('Return the diff without writing the file.'),
  }),
  // `dryRun: true` is a read: not governed, not journaled. Anything else is an fs write.
  policy: {
    fsScoped: true,
    fsWrite: true,
    spawnsProcess: false,
    requiresGateApproval: false,
    readOnlyWhen: 'dryRun',
    // Rewrites lines in place; a repeat applies the edits again (or fails to find them).
    effect: { readOnly: false, destructive: true, idempotent: false },
  },
  // The approver sees the edits as sent: consent never waits on a read of the file.
  policyTarget: (args) => ({ path: args.path, edits: args.edits.map((one) => dropUndefined(one)) }),
  async dispatch(args, host, ctx) {
    const fs = requireArmBeforeEffect(ID, host.fs, 'fs');
    // A read-only host omits editFile: a host gap, not something the model can fix.
    if (fs.editFile === undefined) {
      throw refusedBeforeEffect(new ToolUnavailableError(ID, 'fs.editFile'));
    }
    const request = dropUndefined({
      path: args.path,
      edits: args.edits.map((one) => dropUndefined(one)),
      dryRun: args.dryRun,
    });
    const { path, replacements, diff } = await fs.editFile(request, ctx.signal);
    const result = { path, replacements, diff };
    // A diff reads as a diff, not as one JSON string of escaped newlines.
    const verb = args.dryRun === true ? 'would replace' : 'replaced';
    return withModelView(result, `${path}: ${verb} ${replacements} occurrence(s)\n${diff}`);
  },
});

function totalLength(edits: readonly { oldText: string; newText: string }[]): number {
  return edits.reduce((sum, one) => sum + one.oldText.length + one.newText.length, 0);
}
