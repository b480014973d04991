import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  classifyToolError,
  ToolDispatchError,
  ToolPolicyError,
  UnknownToolError,
  type ToolErrorClass,
} from '@toolhost/core';
import { describeFailure, type FailureReport } from '../commands/describe-failure.js';

/** The `_meta` key of a tool error's `{ code, reason, classification }`. */
export const TOOL_ERROR_META_KEY = 'io.toolhost/error';

/** What a client reads to tell a failure the model can correct from a fatal one. */
export interface ToolErrorInfo {
  /** The dispatch error code (`tool_denied`, `tool_args_invalid`, `tool_failed`, …). */
  readonly code: string;
  /** The spec's snake_case reason (`scope_escape`, `no_approval_hook`, `not_found`, …). */
  readonly reason?: string;
  /** `classifyToolError`'s verdict: correctable, recoverable, fatal or cancelled. */
  readonly classification: ToolErrorClass;
}

/**
 * A JSON-RPC error the SDK sends with exactly this code and message (an `McpError` would carry
 * its own "MCP error -326xx:" prefix, which the client's `McpError` then repeats).
 */
export class JsonRpcError extends Error {
  override readonly name = 'JsonRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * A failed `tools/call` as MCP 2025-11-25 (SEP-1303) asks: a denial, invalid arguments or a host
 * failure is a tool execution error (`isError`, the secret-free message and the CLI's hint, and
 * `{ code, reason, classification }` as `structuredContent` and under `_meta`). Only a protocol
 * problem, an unknown tool, is thrown: JSON-RPC -32602. The SDK's client validates an error's
 * `structuredContent` too, so every listed `outputSchema` admits this shape (`toolOutputSchema`).
 */
export function toToolErrorResult(error: unknown): CallToolResult {
  if (error instanceof UnknownToolError) {
    throw new JsonRpcError(ErrorCode.InvalidParams, error.message, { code: error.code });
  }
  const report = describeFailure(error);
  const info: ToolErrorInfo = {
    code: report.code,
    ...(report.reason === undefined ? {} : { reason: report.reason }),
    classification: classifyToolError(error),
  };
  return {
    isError: true,
    content: [{ type: 'text', text: describe(error, report) }],
    structuredContent: { ...info },
    _meta: { [TOOL_ERROR_META_KEY]: info },
  };
}

function describe(error: unknown, report: FailureReport): string {
  // A foreign throw may hold a path or a value: only the fixed line, never its message.
  if (!(error instanceof ToolDispatchError) && report.code === 'internal') {
    return 'toolhost: internal error';
  }
  const extra = report.userReason ?? report.detail;
  const lines = [extra === undefined ? report.message : `${report.message}: ${extra}`];
  const hint = serveHint(error) ?? report.hint;
  if (hint !== undefined) lines.push(`hint: ${hint}`);
  return lines.join('\n');
}

// The CLI's hints, except where they name what only `toolhost call` has.
function serveHint(error: unknown): string | undefined {
  if (error instanceof ToolPolicyError && error.reason === 'gate_required') {
    return 'this tool needs a human gate, which toolhost serve never gives: run it with `toolhost call --gate-approved`';
  }
  return undefined;
}
