import type { ToolActionPreview } from '@toolhost/core';

/**
 * Every field a person is shown, copied by name: a wider object handed in at runtime (a request
 * carrying `unredactedPreview`) can never carry more. For live views (the control tower's
 * timeline), which may show a write's scrubbed, bounded start.
 */
export function pickShownPreview(preview: ToolActionPreview): ToolActionPreview {
  const { change, content, contentTruncated } = preview;
  return {
    ...pickLoggedPreview(preview),
    ...(change === undefined ? {} : { change }),
    ...(content === undefined ? {} : { content }),
    ...(contentTruncated === undefined ? {} : { contentTruncated }),
  };
}

/**
 * What the audit log keeps of a preview: what was targeted and how (a write's mode and size),
 * never the text written (`content`, an edit's `change`). An audit log lives long and is copied
 * around, and the scrubber is best-effort: a secret shape it misses in file text would be kept
 * for good. The live approval views show the text; the log records that it was there.
 */
export function pickLoggedPreview(preview: ToolActionPreview): ToolActionPreview {
  const { path, destination, writeMode, byteCount, command, host, server, tool } = preview;
  return {
    ...(path === undefined ? {} : { path }),
    ...(destination === undefined ? {} : { destination }),
    ...(writeMode === undefined ? {} : { writeMode }),
    ...(byteCount === undefined ? {} : { byteCount }),
    ...(command === undefined ? {} : { command }),
    ...(host === undefined ? {} : { host }),
    ...(server === undefined ? {} : { server }),
    ...(tool === undefined ? {} : { tool }),
  };
}
