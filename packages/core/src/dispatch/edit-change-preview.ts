import type { PolicyTargetEdit } from '../tool-def.js';
import { escapeControls } from './escape-controls.js';

/** The longest `change` an approver is shown, in UTF-16 code units (the marker included). */
export const MAX_CHANGE_PREVIEW_LENGTH = 4096;

const TRUNCATED = '\n… (truncated)';

/**
 * An edit's replacements as a readable before/after (`- ` old lines, `+ ` new lines), built from
 * the args alone: no file is read before consent. Each side goes through `scrub` whole before it
 * is cut, so a secret is never split into a fragment the scrubber no longer recognises; control
 * characters are shown escaped, so model text cannot drive the approver's terminal.
 */
export function renderEditChange(
  edits: readonly PolicyTargetEdit[],
  scrub: (text: string) => string,
): string {
  const blocks: string[] = [];
  let length = 0;
  for (const [index, edit] of edits.entries()) {
    if (length > MAX_CHANGE_PREVIEW_LENGTH) break;
    const heading = `edit ${index + 1} of ${edits.length}${edit.replaceAll === true ? ' (every occurrence)' : ''}:`;
    const after =
      edit.newText === '' ? '(deleted: nothing replaces it)' : side('+ ', edit.newText, scrub);
    const block = [heading, side('- ', edit.oldText, scrub), after].join('\n');
    blocks.push(block);
    length += block.length + 1;
  }
  return cut(blocks.join('\n'));
}

function side(prefix: string, text: string, scrub: (text: string) => string): string {
  // Only what can be shown is split into lines: a megabyte `oldText` costs one slice.
  const shown = scrub(text).slice(0, MAX_CHANGE_PREVIEW_LENGTH + 1);
  return shown
    .split('\n')
    .map((line) => prefix + escapeControls(line.endsWith('\r') ? line.slice(0, -1) : line))
    .join('\n');
}

// Cut on a code-point boundary: a lone surrogate would render as garbage or fail to encode.
function cut(text: string): string {
  if (text.length <= MAX_CHANGE_PREVIEW_LENGTH) return text;
  let end = MAX_CHANGE_PREVIEW_LENGTH - TRUNCATED.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + TRUNCATED;
}
