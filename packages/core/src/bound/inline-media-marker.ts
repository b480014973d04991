// What the inline-media backstop leaves where media was, in a module of its own so the scans
// (`base64-runs.ts`, the data-URI pass) and the backstop share it without an import cycle.

/** The shortest bare base64 run treated as inline media: shorter runs are hashes, ids, tokens. */
export const INLINE_BASE64_MIN_RUN = 4096;

/** What stands where inline media was: its size and where media belongs instead. */
export function inlineMediaMarker(length: number): string {
  return `[inline media removed: ${length} chars; media goes through the media store as a media:// handle]`;
}

/** What stands where a `{ kind: 'base64' }` object or raw binary was. */
export function binaryMediaMarker(byteLength: number | undefined): string {
  const size = byteLength === undefined ? '' : ` ${byteLength} bytes`;
  return `[inline binary removed:${size}; media goes through the media store as a media:// handle]`;
}
