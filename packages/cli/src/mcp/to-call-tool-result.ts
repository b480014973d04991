import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  classifyToolError,
  ToolDeniedByUserError,
  ToolDispatchError,
  ToolExecutionError,
  toModelText,
  unwrapUntrusted,
  type LoopDispatchOutcome,
} from '@toolhost/core';

/** A dispatch outcome as an MCP tool result: the bounded model-facing text, nothing more. */
export function toCallToolResult(outcome: LoopDispatchOutcome): CallToolResult {
  const { result } = unwrapUntrusted(outcome.toolResult);
  const text = toModelText(result);
  const media =
    outcome.mediaAttachments === undefined ? [] : unwrapUntrusted(outcome.mediaAttachments);
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  if (media.length > 0) {
    // Handles are only meaningful inside toolhost; the client gets a note, not a dangling ref.
    content.push({
      type: 'text',
      text: `[${media.length} media attachment(s) not forwarded over MCP]`,
    });
  }
  return { content };
}

/**
 * A dispatch failure as MCP sees it: correctable and recoverable failures become an `isError`
 * result the model can act on; fatal ones (denials, host failures) a JSON-RPC error. Every text
 * is the error's fixed, secret-free message; anything that is not a dispatch error says nothing.
 */
export function toCallToolFailure(error: unknown): CallToolResult {
  const kind = classifyToolError(error);
  if (!(error instanceof ToolDispatchError)) {
    throw new McpError(ErrorCode.InternalError, 'toolhost: internal error');
  }
  if (kind === 'correctable' || kind === 'recoverable') {
    return { isError: true, content: [{ type: 'text', text: describe(error) }] };
  }
  throw new McpError(
    error.code === 'tool_denied' ? ErrorCode.InvalidRequest : ErrorCode.InternalError,
    describe(error),
    { code: error.code },
  );
}

function describe(error: ToolDispatchError): string {
  if (error instanceof ToolExecutionError && error.detail !== undefined) {
    return `${error.message}: ${error.detail}`;
  }
  if (error instanceof ToolDeniedByUserError && error.userReason !== undefined) {
    return `${error.message}: ${error.userReason}`;
  }
  return error.message;
}
