import type { ToolActionClass, ToolActionPreview } from '../dispatch-context.js';
import { normalizeHost } from '../policy/normalize-host.js';
import { parseUrl } from '../policy/parse-url.js';
import { redactText } from '../redact/redact-text.js';
import type { PolicyTarget } from '../tool-def.js';
import { previewContent } from './content-preview.js';
import { renderEditChange } from './edit-change-preview.js';

/** The two views of a governed call's selection: what a human sees, and what stays in-process. */
export interface ActionPreviews {
  /** Scrubbed and frozen: the only view that may be shown, logged or forwarded. */
  readonly preview: ToolActionPreview;
  /** The same fields unscrubbed, for in-process classification only. */
  readonly unredactedPreview: ToolActionPreview;
}

type MutablePreview = { -readonly [K in keyof ToolActionPreview]: ToolActionPreview[K] };

/**
 * The selection the approver and the governor see: the path (and an edit's before/after, or a
 * write's mode, size and start), the command, or the host (and an MCP call's server and tool)
 * only, since a URL's path and query are where credentials live.
 */
export function previewAction(
  action: ToolActionClass,
  target: PolicyTarget | undefined,
): ActionPreviews {
  const selection = selectionOf(action, target);
  const preview = scrub(selection);
  if (action !== 'fs_write' || target === undefined) {
    return { preview: Object.freeze(preview), unredactedPreview: selection };
  }
  // The change and the content are scrubbed whole before they are cut, not as shown strings.
  if (target.edits !== undefined) {
    preview.change = renderEditChange(target.edits, redactText);
    selection.change = renderEditChange(target.edits, (text) => text);
  }
  if (target.content !== undefined) {
    const { byteCount, content, contentTruncated } = previewContent(target.content, redactText);
    preview.byteCount = byteCount;
    preview.content = content;
    preview.contentTruncated = contentTruncated;
    // The unscrubbed view carries the size, not the text: nothing in-process classifies a write
    // by its content, and a raw copy handed to every hook is one a careless hook could leak.
    selection.byteCount = byteCount;
  }
  return { preview: Object.freeze(preview), unredactedPreview: selection };
}

function selectionOf(action: ToolActionClass, target: PolicyTarget | undefined): MutablePreview {
  if (target === undefined) return {};
  switch (action) {
    case 'fs_write':
      return {
        ...(target.path === undefined ? {} : { path: target.path }),
        ...(target.destination === undefined ? {} : { destination: target.destination }),
        ...(target.writeMode === undefined ? {} : { writeMode: target.writeMode }),
      };
    case 'process':
      return target.command === undefined ? {} : { command: target.command };
    case 'egress': {
      const host = hostOf(target);
      return {
        ...(host === undefined ? {} : { host }),
        ...(target.server === undefined ? {} : { server: target.server }),
        ...(target.tool === undefined ? {} : { tool: target.tool }),
      };
    }
    case 'os':
      return {};
  }
}

// An http call's URL, else a search tool's config-pinned endpoint host: the host only, either way.
function hostOf(target: PolicyTarget): string | undefined {
  const hostname = target.url === undefined ? target.endpointHost : parseUrl(target.url)?.hostname;
  return hostname === undefined || hostname === '' ? undefined : normalizeHost(hostname);
}

function scrub(selection: ToolActionPreview): MutablePreview {
  const scrubbed: MutablePreview = {};
  if (selection.path !== undefined) scrubbed.path = redactText(selection.path);
  if (selection.destination !== undefined) scrubbed.destination = redactText(selection.destination);
  if (selection.command !== undefined) scrubbed.command = redactText(selection.command);
  if (selection.host !== undefined) scrubbed.host = redactText(selection.host);
  if (selection.server !== undefined) scrubbed.server = redactText(selection.server);
  if (selection.tool !== undefined) scrubbed.tool = redactText(selection.tool);
  // A fixed label, not model text: shown as it is.
  if (selection.writeMode !== undefined) scrubbed.writeMode = selection.writeMode;
  return scrubbed;
}
