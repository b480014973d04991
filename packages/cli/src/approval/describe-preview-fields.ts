import type { ToolActionPreview } from '@toolhost/core';
import { escapeForPrompt } from './escape-for-prompt.js';

/** Shown under a write's content when it is only the start of the text. */
export const CONTENT_CUT_MARKER = '✂ cut here: the rest of the text is not shown';

/** The most lines of a write's content a prompt shows. */
export const MAX_CONTENT_LINES = 40;

/** One labelled part of a preview, every value already escaped into inert prompt lines. */
export interface PreviewField {
  readonly label: string;
  readonly lines: readonly string[];
  /** A text shown under its label (an edit's before/after, a write's content), never beside it. */
  readonly block: boolean;
}

/**
 * The preview's fields as a person reads them, in the order they matter, shared by the terminal
 * prompt and MCP elicitation so both say the same. Every model-controlled value goes through
 * `escapeForPrompt` line by line: a newline inside one cannot fake a prompt line.
 */
export function describePreviewFields(preview: ToolActionPreview): PreviewField[] {
  const fields: PreviewField[] = [];
  const one = (label: string, value: string | undefined): void => {
    if (value !== undefined) fields.push({ label, lines: [escapeForPrompt(value)], block: false });
  };
  const block = (label: string, value: string | undefined): void => {
    if (value === undefined) return;
    fields.push({ label, lines: value.split('\n').map(escapeForPrompt), block: true });
  };
  one('path', preview.path);
  one('to', preview.destination);
  const write = describeWrite(preview);
  if (write !== undefined) fields.push({ label: 'write', lines: [write], block: false });
  block('change', preview.change);
  if (preview.content !== undefined) {
    const all = preview.content.split('\n');
    // 4 KiB of newlines would scroll the question away: a prompt shows a screenful at most.
    const cut = preview.contentTruncated === true || all.length > MAX_CONTENT_LINES;
    const lines = all.slice(0, MAX_CONTENT_LINES).map(escapeForPrompt);
    fields.push({
      label: cut ? 'content (start)' : 'content',
      lines: cut ? [...lines, CONTENT_CUT_MARKER] : lines,
      block: true,
    });
  }
  one('command', preview.command);
  one('host', preview.host);
  one('server', preview.server);
  one('tool', preview.tool);
  return fields;
}

/** True when a text field of the preview was scrubbed: the person cannot see all of it. */
export function previewWasRedacted(preview: ToolActionPreview): boolean {
  return Object.values(preview).some(
    (field) => typeof field === 'string' && field.includes('[redacted]'),
  );
}

// Whether the file's text is replaced or added to decides what a write can destroy: say it first.
function describeWrite(preview: ToolActionPreview): string | undefined {
  const { writeMode, byteCount } = preview;
  if (writeMode === undefined && byteCount === undefined) return undefined;
  const size = byteCount === undefined ? 'text' : `${byteCount} byte${byteCount === 1 ? '' : 's'}`;
  return writeMode === 'append'
    ? `append ${size} to the end of the file`
    : `replace the whole file with ${size}`;
}
