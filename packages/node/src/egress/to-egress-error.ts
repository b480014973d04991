import {
  ToolCancelledError,
  ToolDispatchError,
  ToolExecutionError,
  type ToolId,
} from '@toolhost/core';

/** Why the request's combined signal fired. */
export interface AbortState {
  readonly cancelled: boolean;
  readonly timedOut: boolean;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/**
 * Maps anything the egress path threw onto the failure ladder: cancel wins, then our own timeout,
 * then typed errors as thrown, then a fixed reason code (`tls`, `timed_out`, `network`) with the
 * raw error only on `cause`.
 */
export function toEgressError(
  toolId: ToolId,
  error: unknown,
  state: AbortState,
): ToolDispatchError {
  if (state.cancelled) return new ToolCancelledError(toolId, { cause: error });
  if (state.timedOut) return new ToolExecutionError(toolId, 'timed_out', { cause: error });
  if (error instanceof ToolDispatchError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const reason = TLS_CODE.test(code) ? 'tls' : TIMEOUT_CODES.has(code) ? 'timed_out' : 'network';
  return new ToolExecutionError(toolId, reason, { cause: error });
}
