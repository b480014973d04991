import { redactText } from '@toolhost/core/redact';
import type { ProcessOutputChunk } from '@toolhost/node';
import { sanitizeLineForTerminal } from '../terminal/sanitize-for-terminal.js';

/** Keeps the last complete output line of the running command, for the progress display. */
export interface OutputTail {
  /** The process arm's observer: feed it every chunk. */
  observe(output: ProcessOutputChunk): void;
  /** The last non-blank line, redacted and inert on a terminal; `undefined` before any. */
  lastLine(): string | undefined;
  /** Forget what the previous command printed. */
  reset(): void;
}

// Only the end of the stream matters; a line longer than this is shown by its tail.
const KEEP_CHARS = 512;

/** Creates an empty tail. */
export function createOutputTail(): OutputTail {
  let pending = '';
  let last: string | undefined;
  const decoder = new TextDecoder('utf-8');
  return {
    observe({ chunk }) {
      pending = (pending + decoder.decode(chunk, { stream: true })).slice(-KEEP_CHARS * 4);
      const lines = pending.split(/\r?\n|\r/);
      pending = lines.pop() ?? '';
      for (let index = lines.length - 1; index >= 0; index--) {
        const line = lines[index]?.trim() ?? '';
        if (line !== '') {
          last = line.slice(-KEEP_CHARS);
          break;
        }
      }
    },
    lastLine() {
      // Output is untrusted: no secret shape and no escape sequence reaches the screen.
      return last === undefined ? undefined : sanitizeLineForTerminal(redactText(last));
    },
    reset() {
      pending = '';
      last = undefined;
    },
  };
}
