import type { ToolActionClass, ToolActionPreview } from '../dispatch-context.js';
import { normalizeHost } from '../policy/normalize-host.js';
import { parseUrl } from '../policy/parse-url.js';
import { redactText } from '../redact/redact-text.js';
import type { PolicyTarget } from '../tool-def.js';
import { renderEditChange } from './edit-change-preview.js';

/** The two views of a governed call's selection: what a human sees, and what stays in-process. */
export interface ActionPreviews {
  /** Scrubbed and frozen: the only view that may be shown, logged or forwarded. */
  readonly preview: ToolActionPreview;
  /** The same fields unscrubbed, for in-process classification only. */
  readonly unredactedPreview: ToolActionPreview;
}

/**
 * The selection the approver and the governor see: the path (and an edit's before/after), the
 * command, or the host only, since a URL's path and query are where credentials live.
 */
export function previewAction(
  action: ToolActionClass,
  target: PolicyTarget | undefined,
): ActionPreviews {
  const selection = selectionOf(action, target);
  const edits = action === 'fs_write' ? target?.edits : undefined;
  if (edits === undefined) return { preview: scrub(selection), unredactedPreview: selection };
  // The change is scrubbed side by side before it is cut, not as one rendered string.
  return {
    preview: Object.freeze({
      ...scrub(selection),
      change: renderEditChange(edits, redactText),
    }),
    unredactedPreview: { ...selection, change: renderEditChange(edits, (text) => text) },
  };
}

function selectionOf(action: ToolActionClass, target: PolicyTarget | undefined): ToolActionPreview {
  if (target === undefined) return {};
  switch (action) {
    case 'fs_write':
      return {
        ...(target.path === undefined ? {} : { path: target.path }),
        ...(target.destination === undefined ? {} : { destination: target.destination }),
      };
    case 'process':
      return target.command === undefined ? {} : { command: target.command };
    case 'egress': {
      const hostname = target.url === undefined ? undefined : parseUrl(target.url)?.hostname;
      const host = hostname === undefined ? undefined : normalizeHost(hostname);
      return host === undefined ? {} : { host };
    }
    case 'os':
      return {};
  }
}

function scrub(preview: ToolActionPreview): ToolActionPreview {
  const scrubbed: { path?: string; destination?: string; command?: string; host?: string } = {};
  if (preview.path !== undefined) scrubbed.path = redactText(preview.path);
  if (preview.destination !== undefined) scrubbed.destination = redactText(preview.destination);
  if (preview.command !== undefined) scrubbed.command = redactText(preview.command);
  if (preview.host !== undefined) scrubbed.host = redactText(preview.host);
  return Object.freeze(scrubbed);
}
