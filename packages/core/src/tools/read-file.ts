import { z } from 'zod';
import type { FileRead, FsReadRequest } from '../fs-capability.js';
import { copyUtf8Source } from '../bound/utf8-source.js';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { withMedia } from '../with-media.js';
import { pathString } from './arg-bounds.js';
import { READ_ONLY_EFFECT } from './tool-effects.js';

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
  policy: {
    fsScoped: true,
    spawnsProcess: false,
    requiresGateApproval: false,
    effect: READ_ONLY_EFFECT,
  },
  policyTarget: (args) => ({ path: args.path }),
  async dispatch(args, host, ctx) {
    const fs = requireArmBeforeEffect(ID, host.fs, 'fs');
    const read = await fs.readFile(readRequest(args, ctx.mediaScope), ctx.signal);
    const { content, mimeType, sizeBytes, lastModified, media, matches, totalLines, more } = read;
    // Binary bytes never travel inline: the model gets the handle, the media rides step 5b.
    if (media !== undefined) {
      return withMedia({ content: '', mimeType, sizeBytes, lastModified, handle: media.handle }, [
        media,
      ]);
    }
    // The file's bytes ride along (unseen) so a spill writes them instead of re-encoding.
    const result: Mutable<ReadFileResult> = { content, mimeType, sizeBytes, lastModified };
    if (matches !== undefined) result.matches = matches;
    if (totalLines !== undefined) result.totalLines = totalLines;
    if (more !== undefined) result.more = more;
    return copyUtf8Source(read, result);
  },
});

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type ReadFileResult = Omit<FileRead, 'media'>;

// The request with only the keys the call has, in the schema's order: what `dropUndefined`
// made of the spread args, without its generic per-key copy on every read.
function readRequest(
  args: {
    path: string;
    glob?: boolean | undefined;
    offset?: number | undefined;
    limit?: number | undefined;
  },
  mediaScope: string | undefined,
): FsReadRequest {
  const request: Mutable<FsReadRequest> = { path: args.path };
  if (args.glob !== undefined) request.glob = args.glob;
  if (args.offset !== undefined) request.offset = args.offset;
  if (args.limit !== undefined) request.limit = args.limit;
  if (mediaScope !== undefined) request.mediaScope = mediaScope;
  return request;
}
