import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolCancelledError, ToolExecutionError, type ToolId } from '@toolhost/core';
import {
  refusedBeforeEffect,
  type AbortSignalLike,
  type ToolHostCallOptions,
} from '@toolhost/core/host';
import {
  toMcpErrorDetail,
  toMcpToolOutput,
  type McpContentView,
  type McpResultView,
} from './to-mcp-tool-output.js';
import type { McpServerExit } from './stdio-process-transport.js';

/**
 * The `_meta` key a journaled call's idempotency key rides on: reverse-DNS prefix (the MCP
 * spec's key rule), second label `toolhost`, so outside the prefixes MCP reserves.
 */
export const IDEMPOTENCY_KEY_META = 'io.toolhost/idempotency-key';

/** One call, already resolved to a live connection and validated arguments. */
export interface McpToolCall {
  readonly toolId: ToolId;
  readonly client: Client;
  /** The server's own tool name (not the sanitised id). */
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly timeoutMs: number;
  /** True once the server's transport closed. */
  readonly isClosed: () => boolean;
  /** How a stdio server's process ended, once it did. */
  readonly exit?: (() => McpServerExit | undefined) | undefined;
  readonly signal?: AbortSignalLike | undefined;
  readonly hostCallOptions?: ToolHostCallOptions | undefined;
}

/**
 * Runs `tools/call` and maps every way it can end onto the taxonomy: an `isError` result is a
 * correctable `tool_reported_error`, a dead server `server_exited`, the deadline `timed_out`,
 * an abort `ToolCancelledError` (cancel wins over everything).
 */
export async function callMcpTool(call: McpToolCall): Promise<unknown> {
  const { toolId, signal, hostCallOptions } = call;
  // Nothing sent yet: a journaled call stopped here may run later.
  if (signal?.aborted === true) throw refusedBeforeEffect(new ToolCancelledError(toolId));
  if (call.isClosed()) throw refusedBeforeEffect(serverExited(call));
  const run = () => requestTool(call);
  try {
    // The trusted lifetime authority owns the in-flight request when the runner provides one.
    return await (hostCallOptions?.retainWork === undefined
      ? run()
      : hostCallOptions.retainWork(run));
  } catch (error) {
    throw toDispatchError(call, error);
  }
}

async function requestTool(call: McpToolCall): Promise<unknown> {
  // A call without a signal cannot be aborted: no controller, no listener on either side.
  const controller = call.signal === undefined ? undefined : new AbortController();
  const onAbort = () => controller?.abort();
  call.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const idempotencyKey = call.hostCallOptions?.idempotencyKey;
    const timeouts = { timeout: call.timeoutMs, maxTotalTimeout: call.timeoutMs };
    const response: Record<string, unknown> = await call.client.callTool(
      {
        name: call.tool,
        arguments: call.args,
        // In the request's `_meta`, never in `arguments`: no tool schema or model can reach it.
        ...(idempotencyKey === undefined
          ? {}
          : { _meta: { [IDEMPOTENCY_KEY_META]: idempotencyKey } }),
      },
      CallToolResultSchema,
      controller === undefined ? timeouts : { ...timeouts, signal: controller.signal },
    );
    const result = toResultView(response);
    if (response.isError === true) {
      throw new ToolExecutionError(call.toolId, 'tool_reported_error', {
        correctable: true,
        detail: toMcpErrorDetail(result),
      });
    }
    return toMcpToolOutput(result);
  } finally {
    call.signal?.removeEventListener('abort', onAbort);
  }
}

function toDispatchError(call: McpToolCall, error: unknown): Error {
  if (call.signal?.aborted === true) return new ToolCancelledError(call.toolId, { cause: error });
  if (error instanceof ToolExecutionError || error instanceof ToolCancelledError) return error;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new ToolExecutionError(call.toolId, 'timed_out', { cause: error });
  }
  if (call.isClosed() || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
    return serverExited(call, error);
  }
  // The server's own error text is untrusted and may echo arguments: it stays on `cause`.
  return new ToolExecutionError(call.toolId, 'server_error', { cause: error });
}

// The SDK's result union also holds the 2024-10-07 `{ toolResult }` shape; both become a view.
function toResultView(response: Record<string, unknown>): McpResultView {
  const content = Array.isArray(response.content)
    ? response.content.filter(
        (block): block is McpContentView => typeof block === 'object' && block !== null,
      )
    : [];
  if (!Array.isArray(response.content) && 'toolResult' in response) {
    return { content, structuredContent: response.toolResult };
  }
  return 'structuredContent' in response
    ? { content, structuredContent: response.structuredContent }
    : { content };
}

// The exit is the host's own reading of a process it reaped, a code or a signal name: safe to
// show the model, and the difference between a server that crashed and one that was killed.
function serverExited(call: McpToolCall, cause?: unknown): ToolExecutionError {
  const exit = call.exit?.();
  const detail =
    exit === undefined
      ? undefined
      : exit.exitSignal !== null
        ? `the server was killed by ${exit.exitSignal}`
        : exit.exitCode !== null
          ? `the server exited with code ${exit.exitCode}`
          : undefined;
  return new ToolExecutionError(call.toolId, 'server_exited', {
    ...(cause === undefined ? {} : { cause }),
    ...(detail === undefined ? {} : { detail }),
  });
}
