import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { refusedBeforeEffect, ToolUnavailableError } from '../errors.js';
import { MAX_CONTENT_LENGTH, pathString } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';

const ID = 'write_file';

/** Writes (replaces or appends) a text file inside the workspace. */
export const writeFileTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Write text to a file inside the workspace, replacing it unless append is true. Set createDirs to create missing parent directories.',
  args: z.strictObject({
    path: pathString('File path relative to the workspace root.'),
    content: z.string().max(MAX_CONTENT_LENGTH).describe('The text to write; may be empty.'),
    append: z.boolean().optional().describe('Append to the file instead of replacing it.'),
    createDirs: z.boolean().optional().describe('Create missing parent directories.'),
  }),
  policy: {
    fsScoped: true,
    fsWrite: true,
    spawnsProcess: false,
    requiresGateApproval: false,
    // Replacing overwrites what was there; a replace repeats harmlessly, an `append` does not.
    effect: { readOnly: false, destructive: true, idempotent: false },
  },
  // The text rides along so the approver sees what is written, not just where (scrubbed, capped).
  policyTarget: (args) => ({
    path: args.path,
    content: args.content,
    writeMode: args.append === true ? 'append' : 'replace',
  }),
  async dispatch(args, host, ctx) {
    const fs = requireArmBeforeEffect(ID, host.fs, 'fs');
    // A read-only host omits writeFile: a host gap, not something the model can fix.
    if (fs.writeFile === undefined) {
      throw refusedBeforeEffect(new ToolUnavailableError(ID, 'fs.writeFile'));
    }
    const written = await fs.writeFile(dropUndefined(args), ctx.signal);
    return { path: written.path, bytesWritten: written.bytesWritten };
  },
});
