import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { AbortSignalLike } from '@toolhost/core/host';
import type {
  ApprovalAnswer,
  ApprovalPrompt,
  ApprovalPrompter,
} from '../approval/approval-prompter.js';
import { describePreviewFields, previewWasRedacted } from '../approval/describe-preview-fields.js';
import { escapeForPrompt } from '../approval/escape-for-prompt.js';

const CHOICES = {
  'approve once': 'once',
  'approve for this target': 'always_target',
  'approve this tool for the session': 'always_tool',
  reject: 'no',
} as const satisfies Record<string, ApprovalAnswer['choice']>;

/** True when the connected client declared form elicitation. */
export function supportsElicitation(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.form !== undefined;
}

/**
 * Asks the MCP client's human through `elicitation/create`. Only the REDACTED preview is shown
 * (the prompt type has no unredacted field to leak). Decline, cancel or no choice is a reject.
 */
export function createElicitationPrompter(
  server: Server,
  relatedRequestId: RequestId,
): ApprovalPrompter {
  return {
    async ask(prompt: ApprovalPrompt, signal?: AbortSignalLike): Promise<ApprovalAnswer> {
      // Withdrawn before it was sent (the page answered first): nothing reaches the client.
      if (signal?.aborted === true) throw signal.reason;
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await server.elicitInput(
          {
            mode: 'form',
            message: describePrompt(prompt),
            requestedSchema: {
              type: 'object',
              properties: {
                decision: { type: 'string', title: 'Decision', enum: Object.keys(CHOICES) },
              },
              required: ['decision'],
            },
          },
          // Tied to the tools/call so a Streamable HTTP client gets it on that call's stream.
          { relatedRequestId, signal: controller.signal, timeout: 10 * 60_000 },
        );
        const decision = result.action === 'accept' ? result.content?.decision : undefined;
        const choice =
          typeof decision === 'string' && Object.hasOwn(CHOICES, decision)
            ? CHOICES[decision as keyof typeof CHOICES]
            : 'no';
        return choice === 'no'
          ? { choice, reason: 'rejected in the MCP client', by: 'elicitation' }
          : { choice, by: 'elicitation' };
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

// The client shows this text to its human as is: a model-controlled newline could fake a line and
// a bidi override could reverse one, so each value is escaped exactly as in the terminal prompt.
function describePrompt(prompt: ApprovalPrompt): string {
  const target = describePreviewFields(prompt.preview).map(({ label, lines, block }) =>
    block
      ? [`${label}:`, ...lines.map((line) => `  ${line}`)].join('\n')
      : lines.map((line) => `${label}: ${line}`).join('\n'),
  );
  if (previewWasRedacted(prompt.preview)) {
    target.push('(part of this target was redacted as secret-shaped: you cannot see all of it)');
  }
  return [
    `toolhost: allow ${escapeForPrompt(prompt.toolId)} (${prompt.action})?`,
    ...target,
    ...(prompt.note === undefined ? [] : [`note: ${prompt.note}`]),
  ].join('\n');
}
