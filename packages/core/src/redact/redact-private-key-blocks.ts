import { REDACTED } from './redacted-marker.js';

// The END search is bounded and its answer cached, so a flood of headers without an END line
// stays linear.
const PEM_HEADER = /-----BEGIN ([A-Z0-9 ]{0,40})-----/y;
const PEM_WINDOW = 16_384;

/**
 * `text` with the body of every PEM private-key block replaced by `[redacted]`, from its header
 * to its END line (or, with no END line within reach, the next 16 KiB); other PEM blocks stay.
 */
export function redactPrivateKeyBlocks(text: string): string {
  let output = '';
  let copiedUpTo = 0;
  let searchFrom = 0;
  let knownEnd = -2; // -2: not searched yet; -1: no END after the last search start
  for (;;) {
    const start = text.indexOf('-----BEGIN ', searchFrom);
    if (start === -1) break;
    PEM_HEADER.lastIndex = start;
    const header = PEM_HEADER.exec(text);
    const label = header?.[1];
    if (header === null || label === undefined || !label.includes('PRIVATE KEY')) {
      searchFrom = start + 11;
      continue;
    }
    const bodyStart = start + header[0].length;
    if (knownEnd !== -1 && knownEnd < bodyStart) knownEnd = text.indexOf('-----END ', bodyStart);
    let blockEnd: number;
    let tail = '';
    if (knownEnd !== -1 && knownEnd - bodyStart <= PEM_WINDOW) {
      const lineEnd = text.indexOf('-----', knownEnd + 9);
      blockEnd = lineEnd === -1 || lineEnd - knownEnd > 80 ? knownEnd + 9 : lineEnd + 5;
      tail = `\n${text.slice(knownEnd, blockEnd)}`;
    } else {
      // No END line within reach: everything up to the window is treated as key material.
      blockEnd = Math.min(text.length, bodyStart + PEM_WINDOW);
    }
    output += `${text.slice(copiedUpTo, bodyStart)}\n${REDACTED}${tail}`;
    copiedUpTo = blockEnd;
    searchFrom = blockEnd;
  }
  return copiedUpTo === 0 ? text : output + text.slice(copiedUpTo);
}
