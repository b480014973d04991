import { createInterface } from 'node:readline';
import type { AbortSignalLike } from '@toolhost/core/host';
import type { ApprovalAnswer, ApprovalPrompt, ApprovalPrompter } from './approval-prompter.js';
import { describePreviewFields, previewWasRedacted } from './describe-preview-fields.js';
import { escapeForPrompt } from './escape-for-prompt.js';

/** Streams the prompt talks through: stderr for the question, stdin for the answer. */
export interface PromptStreams {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

const ACTION_LABELS = {
  fs_write: 'write a file',
  process: 'run a command',
  egress: 'make a network request',
  os: 'use the clipboard or notifications',
} as const;

/** A line-based terminal prompter; shows only the redacted preview. */
export function createTtyPrompter(streams: PromptStreams): ApprovalPrompter {
  return {
    async ask(prompt, signal) {
      const lines = openLineReader(streams, signal);
      try {
        streams.output.write(renderPrompt(prompt));
        for (;;) {
          const line = (await lines.next('> '))?.trim().toLowerCase();
          // End of input is a refusal: a closed terminal never approves anything.
          if (line === undefined) return { choice: 'no', reason: 'no answer (input closed)' };
          const answer = parseChoice(line);
          if (answer === 'reason') {
            const reason = await lines.next('reason: ');
            return { choice: 'no', reason: sanitiseReason(reason ?? '') };
          }
          if (answer !== undefined) return answer;
          streams.output.write('answer y, t, a, n or r\n');
        }
      } finally {
        lines.close();
      }
    },
  };
}

/** The prompt text; exported for the unit test. */
export function renderPrompt(prompt: ApprovalPrompt): string {
  // The target (and an MCP tool's id) is model-controlled: an escape sequence, a newline or a
  // bidi override in it could redraw the prompt to show something harmless, so it is printed inert.
  const lines = [
    `\ntoolhost: ${escapeForPrompt(prompt.toolId)} wants to ${ACTION_LABELS[prompt.action]}`,
  ];
  // Multi-line values (an edit's before/after, a write's content) go under their label, one
  // escaped line each: a newline inside one cannot fake a prompt line.
  for (const { label, lines: values, block } of describePreviewFields(prompt.preview)) {
    if (block) lines.push(`  ${label}:`, ...values.map((line) => `    ${line}`));
    else lines.push(...values.map((line) => `  ${`${label}:`.padEnd(9)}${line}`));
  }
  if (prompt.note !== undefined) lines.push(`  (${prompt.note})`);
  // A model can shape a target so the scrub hides it; say so instead of looking "protected".
  if (previewWasRedacted(prompt.preview)) {
    lines.push('  (part of this target was redacted as secret-shaped: you cannot see all of it)');
  }
  lines.push(
    'Allow?  [y] once  [t] always for this target  [a] always for this tool  [n] no  [r] no, with a reason',
  );
  return `${lines.join('\n')}\n`;
}

function parseChoice(line: string): ApprovalAnswer | 'reason' | undefined {
  switch (line) {
    case 'y':
    case 'yes':
    case 'once':
      return { choice: 'once' };
    case 't':
      return { choice: 'always_target' };
    case 'a':
      return { choice: 'always_tool' };
    case 'n':
    case 'no':
    case '':
      return { choice: 'no' };
    case 'r':
      return 'reason';
    default:
      return undefined;
  }
}

// The reason becomes a display label on the error: one printable line, bounded.
function sanitiseReason(reason: string): string {
  const clean = reason
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, ' ')
    .trim()
    .slice(0, 200);
  return clean === '' ? 'rejected by the user' : clean;
}

interface LineReader {
  next(question: string): Promise<string | undefined>;
  close(): void;
}

// One readline for the whole prompt, so a reason typed ahead of its question is not lost.
// `terminal: false` keeps the tty in cooked mode, so Ctrl-C stays a real SIGINT for the process.
function openLineReader(streams: PromptStreams, signal?: AbortSignalLike): LineReader {
  const rl = createInterface({ input: streams.input, terminal: false });
  const queued: string[] = [];
  let closed = false;
  let waiter:
    { resolve: (line: string | undefined) => void; reject: (error: unknown) => void } | undefined;
  const onAbort = (): void => waiter?.reject(abortReason(signal));
  signal?.addEventListener('abort', onAbort);
  rl.on('line', (line) => {
    if (waiter === undefined) queued.push(line);
    else waiter.resolve(line);
  });
  rl.on('close', () => {
    closed = true;
    waiter?.resolve(undefined);
  });
  return {
    next(question) {
      if (signal?.aborted === true) return Promise.reject(abortReason(signal));
      const line = queued.shift();
      if (line !== undefined || closed) return Promise.resolve(line);
      streams.output.write(question);
      return new Promise((resolve, reject) => {
        waiter = {
          resolve: (value) => {
            waiter = undefined;
            resolve(value);
          },
          reject: (error) => {
            waiter = undefined;
            reject(error);
          },
        };
      });
    },
    close() {
      signal?.removeEventListener('abort', onAbort);
      rl.close();
    },
  };
}

function abortReason(signal: AbortSignalLike | undefined): unknown {
  return signal?.reason ?? new DOMException('approval prompt aborted', 'AbortError');
}
