import { z } from 'zod';
import { copyUtf8Source } from '../bound/utf8-source.js';
import { defineTool } from '../define-tool.js';
import { requireArm } from '../dispatch/require-arm.js';
import { withMedia } from '../with-media.js';
import { pathString } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';

const ID = 'read_file';

/** Reads a text file (or every glob match); a binary file comes back as a media handle. */
export const readFileTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Read a text file inside the workspace, optionally a window of lines via offset/limit that reports totalLines and more (use it to page a long or spilled result, numbered by the original text\'s lines). With glob true, path is a glob and every match is returned as a "===== path =====" section.',
  args: z.strictObject({
    path: pathString('File path relative to the workspace root, or a glob when glob is true.'),
    glob: z.boolean().optional().describe('Treat path as a glob pattern and read every match.'),
    offset: z.int().min(0).optional().describe('0-based index of the first line to return.'),
    limit: z.int().min(1).optional().describe('Maximum number of lines to return.'),
  }),
  policy: { fsScoped: true, spawnsProcess: false, requiresGateApproval: false },
  policyTarget: (args) => ({ path: args.path }),
  async dispatch(args, host, ctx) {
    const fs = requireArm(ID, host.fs, 'fs');
    const read = await fs.readFile(
      dropUndefined({ ...args, mediaScope: ctx.mediaScope }),
      ctx.signal,
    );
    const { content, mimeType, sizeBytes, lastModified, media, matches, totalLines, more } = read;
    // Binary bytes never travel inline: the model gets the handle, the media rides step 5b.
    if (media !== undefined) {
      return withMedia({ content: '', mimeType, sizeBytes, lastModified, handle: media.handle }, [
        media,
      ]);
    }
    // The file's bytes ride along (unseen) so a spill writes them instead of re-encoding.
    return copyUtf8Source(
      read,
      dropUndefined({ content, mimeType, sizeBytes, lastModified, matches, totalLines, more }),
    );
  },
});
