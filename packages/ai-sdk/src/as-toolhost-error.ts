import {
  ToolArgsInvalidError,
  ToolDispatchError,
  ToolExecutionError,
  UnknownToolError,
} from '@toolhost/core';
import { InvalidToolInputError, NoSuchToolError } from 'ai';
import { ToolCallFeedbackError } from './turn-marks.js';

/** The tool-error part of a step, as both `ai` majors shape it. */
export interface ToolErrorPart {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly error: unknown;
}

/** A step's content: a call the SDK rejected is a tool-call part marked `invalid`. */
type StepContent = readonly { readonly type: string }[];

/**
 * The typed toolhost error behind a step's tool-error: the one toolhost made, or, for a call the
 * SDK rejected itself (its tool-error holds only a string) or a tool of the application's that
 * threw anything at all, the toolhost error of the same ladder rung. `offered` names the tools
 * the model was shown.
 */
export function asToolhostError(
  part: ToolErrorPart,
  content: StepContent,
  offered: readonly string[],
): ToolDispatchError {
  const { toolName, error } = part;
  const made = error instanceof ToolCallFeedbackError ? error.toolError : error;
  if (made instanceof ToolDispatchError) return made;
  const rejection = sdkRejectionOf(part.toolCallId, content);
  if (NoSuchToolError.isInstance(rejection)) return new UnknownToolError(toolName, offered);
  if (InvalidToolInputError.isInstance(rejection)) {
    return new ToolArgsInvalidError(toolName, ['(root)'], { cause: rejection });
  }
  // The thrown value rides on `cause` for logs; the message stays the fixed template.
  return new ToolExecutionError(toolName, 'tool_error', { cause: error, retryable: false });
}

// The SDK's typed error for a call it rejected before any `execute`, kept on the tool-call part.
function sdkRejectionOf(toolCallId: string, content: StepContent): unknown {
  for (const part of content) {
    if (part.type !== 'tool-call') continue;
    const call = part as { toolCallId?: unknown; invalid?: unknown; error?: unknown };
    if (call.toolCallId === toolCallId && call.invalid === true) return call.error;
  }
  return undefined;
}
