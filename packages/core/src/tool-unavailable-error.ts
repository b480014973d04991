import { ToolDispatchError } from './tool-dispatch-error.js';
import type { ToolId } from './tool-def.js';

/**
 * Why an arm that exists still cannot serve the call. `sandbox_unavailable`: process spawning
 * requires the sandbox (the default on Linux) and bubblewrap is missing or refused here.
 * `sandbox_network_unavailable`: a network allowance needs the `@toolhost/sandbox-net` helper,
 * which is not built here.
 */
export type ToolUnavailableReason = 'sandbox_unavailable' | 'sandbox_network_unavailable';

// Fixed, actionable templates: the operator reads these, and they name no path.
const UNAVAILABLE_MESSAGES: Record<ToolUnavailableReason, string> = {
  sandbox_unavailable:
    'the process sandbox is unavailable (bubblewrap is missing, or the kernel or AppArmor refuses it); install bubblewrap (e.g. apt-get install bubblewrap), or set process sandbox to "off" knowingly',
  sandbox_network_unavailable:
    'the network allowance of the process sandbox needs the @toolhost/sandbox-net helper, which is not built here; install a C compiler and reinstall, or remove the network allowance',
};

/** The host arm the tool needs is not wired (a host/config gap, not the model's fault). */
export class ToolUnavailableError extends ToolDispatchError {
  readonly code = 'tool_unavailable';
  readonly runErrorCode = 'tool_unavailable';
  override readonly name = 'ToolUnavailableError';
  override readonly toolId: ToolId;
  /** Set when the arm exists but refuses to run (fail closed); absent: the arm is not wired. */
  readonly reason?: ToolUnavailableReason;

  constructor(
    toolId: ToolId,
    readonly capability: string,
    options: { readonly cause?: unknown; readonly reason?: ToolUnavailableReason } = {},
  ) {
    super(
      options.reason === undefined
        ? `tool ${toolId} unavailable: the host has no ${capability} capability`
        : `tool ${toolId} unavailable: ${UNAVAILABLE_MESSAGES[options.reason]}`,
      toolId,
      options.cause,
    );
    this.toolId = toolId;
    if (options.reason !== undefined) this.reason = options.reason;
  }
}
