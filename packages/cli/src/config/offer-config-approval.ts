import { createInterface } from 'node:readline';
import type { PromptStreams } from '../approval/tty-prompter.js';
import { escapeForPrompt } from '../approval/escape-for-prompt.js';
import { recordConfigApproval } from './config-approval.js';
import type { ConfigNotApprovedError } from './config-not-approved-error.js';

/**
 * Shows a refused workspace config on the terminal and asks whether to approve it; records the
 * approval of exactly the bytes shown on "y". Anything else, or end of input, approves nothing.
 */
export async function offerConfigApproval(
  error: ConfigNotApprovedError,
  streams: PromptStreams,
): Promise<boolean> {
  const { pending, status } = error;
  streams.output.write(
    [
      '',
      `toolhost: ${escapeForPrompt(pending.key)} ${
        status === 'changed' ? 'changed since you approved it' : 'has not been approved'
      }.`,
      'It decides what the agent may do here and which MCP server commands start. Its content:',
      '----',
      renderConfigText(pending.text),
      '----',
      'Approve this content?  [y] yes  [n] no',
      '',
    ].join('\n'),
  );
  const answer = await readOneLine(streams, '> ');
  if (answer === undefined || !['y', 'yes'].includes(answer.trim().toLowerCase())) return false;
  recordConfigApproval(pending);
  streams.output.write('toolhost: approved; `toolhost config approve` does the same\n');
  return true;
}

/**
 * The config as shown for review, line by line through the approval prompts' own escaping:
 * control characters in caret notation and every invisible or direction-changing code point as a
 * visible `\uXXXX`, so the text cannot read differently from what it says.
 */
export function renderConfigText(text: string): string {
  // A final newline is no reason to show an empty last line before the rule.
  return text.replace(/\n$/, '').split('\n').map(escapeForPrompt).join('\n');
}

// `terminal: false` keeps the tty in cooked mode, so Ctrl-C stays a real SIGINT for the process.
function readOneLine(streams: PromptStreams, question: string): Promise<string | undefined> {
  const lines = createInterface({ input: streams.input, terminal: false });
  streams.output.write(question);
  return new Promise((resolve) => {
    let answered = false;
    lines.once('line', (line) => {
      answered = true;
      resolve(line);
      lines.close();
    });
    lines.once('close', () => {
      if (!answered) resolve(undefined);
    });
  });
}
