import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { ToolArgsInvalidError, ToolExecutionError, ToolPolicyError } from '../errors.js';
import type { DurableMediaPart, MediaInfo } from '../tool-host.js';
import { withMedia } from '../with-media.js';
import { READ_ONLY_EFFECT } from './tool-effects.js';

const ID = 'read_media';

/** Largest byte range one `read_media` call returns (the spec's read cap); page past it. */
export const MAX_MEDIA_READ_BYTES = 8 * 1024 * 1024;

/** Reads a stored media object (or an inclusive byte range of it) the caller's scope may see. */
export const readMediaTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Read a stored media object by its media:// handle, optionally an inclusive byte range start..end. The bytes are attached as media, not returned as text.',
  args: z.strictObject({
    handle: z
      .string()
      .regex(/^media:\/\/sha256-[0-9a-f]{64}$/)
      .describe('The media handle, media://sha256-<64 hex>.'),
    start: z.int().min(0).optional().describe('First byte to read (inclusive, default 0).'),
    end: z
      .int()
      .min(0)
      .optional()
      .describe('Last byte to read (inclusive, default the last byte).'),
  }),
  policy: {
    fsScoped: false,
    spawnsProcess: false,
    requiresGateApproval: false,
    effect: READ_ONLY_EFFECT,
  },
  async dispatch(args, host, ctx) {
    const media = requireArmBeforeEffect(ID, host.media, 'media');
    const scope = ctx.mediaScope;
    // Without a scope nothing is readable: the store is not even asked.
    const info = scope === undefined ? undefined : await media.stat(args.handle, ctx.signal);
    // Knowing a sha256 is not authorization, and neither is learning that it exists: an unknown
    // handle and another scope's handle take this one branch and get the very same error (class,
    // reason, message, recoverable), else a model could probe which content other scopes hold.
    // The check comes before any byte is read.
    if (info === undefined || scope === undefined || !info.allowedScopes.includes(scope)) {
      throw new ToolPolicyError(ID, 'media_scope_denied');
    }
    const range = resolveRange(args, info);
    const summary = { handle: info.handle, mimeType: info.mimeType, sizeBytes: info.sizeBytes };
    if (range === undefined) {
      return withMedia({ ...summary }, [{ type: 'media', ...summary, data: new Uint8Array(0) }]);
    }
    const data = await media.read(args.handle, range, ctx.signal);
    if (data.byteLength !== range.end - range.start + 1) {
      throw new ToolExecutionError(ID, 'short_read');
    }
    const part: DurableMediaPart = { type: 'media', ...summary, range, data };
    return withMedia({ ...summary, range }, [part]);
  },
});

/** The inclusive range to read, or `undefined` for a whole empty object. Fail-closed. */
function resolveRange(
  args: { readonly start?: number | undefined; readonly end?: number | undefined },
  info: MediaInfo,
): { start: number; end: number } | undefined {
  const size = info.sizeBytes;
  if (size === 0 && args.start === undefined && args.end === undefined) return undefined;
  const start = args.start ?? 0;
  const end = args.end ?? size - 1;
  if (start >= size) throw rangeError('start', 'out_of_range');
  if (end >= size) throw rangeError('end', 'out_of_range');
  if (end < start) throw rangeError('end', 'before_start');
  if (end - start + 1 > MAX_MEDIA_READ_BYTES) throw rangeError('end', 'range_too_large');
  return { start, end };
}

function rangeError(field: 'start' | 'end', problem: string): ToolArgsInvalidError {
  return new ToolArgsInvalidError(ID, [{ field, problem }]);
}
