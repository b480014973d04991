import { forwardCut, utf8ByteLength } from '../bound/utf8.js';
import { REDACTED } from '../redact/redacted-marker.js';
import { escapeControls } from './escape-controls.js';

/** The most UTF-8 bytes of a write's text an approver is shown (`ToolActionPreview.content`). */
export const MAX_PREVIEW_CONTENT_BYTES = 4096;

/**
 * How far past the cut the scrubber reads: a secret that starts before the cut is scrubbed with
 * its whole shape in view, while an 8 MiB write costs one bounded pass, not a scan of all of it.
 */
export const SCRUB_LOOKAHEAD = 64 * 1024;

/** What an approver is shown of a write's text. */
export interface ContentPreview {
  readonly byteCount: number;
  readonly content: string;
  readonly contentTruncated: boolean;
}

/**
 * The start of `text` as an approver sees it: scrubbed BEFORE it is cut, so a secret straddling
 * the cut is replaced whole rather than left as a fragment the scrubber no longer recognises;
 * control characters escaped; cut to `MAX_PREVIEW_CONTENT_BYTES` on a code-point boundary and
 * never inside a `[redacted]` marker.
 */
export function previewContent(text: string, scrub: (text: string) => string): ContentPreview {
  const window = text.slice(0, MAX_PREVIEW_CONTENT_BYTES + SCRUB_LOOKAHEAD);
  let partial = window.length < text.length;
  let shown = show(window, scrub);
  // The scrubber shrank the window's text under the cap (key material, mostly): what is left
  // ends where the window cut, possibly mid-secret, so the whole text is scrubbed instead.
  if (partial && utf8ByteLength(shown) <= MAX_PREVIEW_CONTENT_BYTES) {
    shown = show(text, scrub);
    partial = false;
  }
  let end = forwardCut(shown, 0, MAX_PREVIEW_CONTENT_BYTES);
  const marker = end < shown.length ? shown.lastIndexOf(REDACTED, end - 1) : -1;
  if (marker !== -1 && marker + REDACTED.length > end) end = marker;
  return {
    byteCount: utf8ByteLength(text),
    content: shown.slice(0, end),
    contentTruncated: partial || end < shown.length,
  };
}

function show(text: string, scrub: (text: string) => string): string {
  return escapeControls(scrub(text).replace(/\r\n/g, '\n'));
}
