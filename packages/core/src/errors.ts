import { compareCodeUnits } from './compare-code-units.js';
import { describeName } from './printable-tool-name.js';
import type { ToolId } from './tool-def.js';
import { ToolDispatchError } from './tool-dispatch-error.js';

export { classifyToolError } from './classify-tool-error.js';
export { withToolId } from './with-tool-id.js';
export { isRefusedBeforeEffect, refusedBeforeEffect } from './refused-before-effect.js';
// Re-exported where they always were; they live apart because they are text helpers, not errors.
export { compareCodeUnits } from './compare-code-units.js';
export { printableToolName } from './printable-tool-name.js';
// Each in a file of its own; the base class first, so every subclass file can import it alone.
export {
  ToolDispatchError,
  type RunErrorCode,
  type ToolDispatchErrorCode,
  type ToolErrorClass,
} from './tool-dispatch-error.js';
export { ToolUnavailableError, type ToolUnavailableReason } from './tool-unavailable-error.js';
export { EffectJournalError, type EffectJournalErrorReason } from './effect-journal-error.js';

/**
 * Why a grant, guardrail, governor or host floor refused a call before any side effect. The first
 * eight and the last four are the engine's; the rest are host floors a `ToolHost` arm throws.
 */
export type ToolPolicyDenyReason =
  | 'not_granted'
  | 'provider_executed'
  | 'command_not_allowed'
  | 'domain_not_allowed'
  | 'insecure_url'
  | 'gate_required'
  | 'media_scope_denied'
  /** The org governor (`ctx.actionGuard`) denied the call, or could not decide (fail closed). */
  | 'governed_block'
  /** fs: the path resolves outside the scope tier (recoverable: the model can pick another). */
  | 'scope_escape'
  /** fs: the read or write floor (secrets, VCS internals, shell startup files, config, state). */
  | 'protected_path'
  /** fs: a symlink where none may be followed, or a descriptor that no longer matches. */
  | 'symlink_refused'
  /** fs: a file with more than one hard link. */
  | 'hard_link_refused'
  /** fs/process: a path no jail can judge (NUL byte, UNC, device namespace). */
  | 'invalid_path'
  /** process: a declared environment variable on the refused set. */
  | 'env_not_allowed'
  /** process: the executable is not on PATH. */
  | 'command_not_found'
  /** egress: the destination is not global unicast or is a blocked name. */
  | 'ssrf_blocked'
  /** egress: a header value or name that could split or spoof a request. */
  | 'header_not_allowed'
  /** `inputMapping` supplied values but `secretArgKeys` is absent: their taint is unknown. */
  | 'unverified_provenance'
  /** A `secretArgKeys` entry names no parameter of the tool (or its parameters are unknowable). */
  | 'unknown_secret_arg_key'
  /** `ctx.limits` holds a ceiling that is not a positive safe integer. */
  | 'invalid_limits'
  /** `mcp_call` named a server tool neither granted nor in `allowedMcpTools`. */
  | 'mcp_tool_not_allowed';

/**
 * Why an interactive approval denied a governed call. Only `user_rejected` is a person's "no";
 * `no_approval_hook` (nobody could be asked), `approval_timeout` (nobody answered in time) and
 * `approval_withdrawn` (the caller left, or the surface closed, while it waited) are refusals
 * nobody decided — `NOBODY_DECIDED_REASONS`; `approval_error` means consent could not be read.
 */
export type ToolDeniedByUserReason =
  | 'user_rejected'
  | 'no_approval_hook'
  | 'approval_timeout'
  | 'approval_withdrawn'
  | 'approval_error';

/** The refusals no person made: one vocabulary for every surface that asks. */
export const NOBODY_DECIDED_REASONS: readonly ToolDeniedByUserReason[] = Object.freeze([
  'no_approval_hook',
  'approval_timeout',
  'approval_withdrawn',
]);

/** The call named no registered tool (exact match only). */
export class UnknownToolError extends ToolDispatchError {
  readonly code = 'unknown_tool';
  readonly runErrorCode = 'tool_failed';
  override readonly name = 'UnknownToolError';
  /** The registered ids the node is granted, sorted, so a loop can tell the model what it may call. */
  readonly availableIds: readonly ToolId[];

  constructor(requestedName: string, availableIds: readonly ToolId[]) {
    const sorted = [...availableIds].sort(compareCodeUnits);
    super(
      `unknown tool ${describeName(requestedName)}; available tools: ${sorted.join(', ') || '(none)'}`,
      undefined,
    );
    this.availableIds = sorted;
  }
}

/**
 * A grant, guardrail or host floor refused the call. The engine's refusals come before the host
 * call; a host floor's may come after an effect started (a redirect hop refused after the first
 * request landed), so only one marked `refusedBeforeEffect` proves nothing ran.
 */
export class ToolPolicyError extends ToolDispatchError {
  readonly code = 'tool_denied';
  readonly runErrorCode = 'tool_denied';
  override readonly name = 'ToolPolicyError';
  override readonly recoverable: boolean;
  override readonly toolId: ToolId;
  /** The governor's display-safe label for a `governed_block`, kept off the message. */
  readonly guardReason?: string;

  constructor(
    toolId: ToolId,
    readonly reason: ToolPolicyDenyReason,
    options: {
      readonly cause?: unknown;
      readonly guardReason?: string;
      /** `false` withdraws a scope denial's flag (a process `cwd`/executable escape); never grants it. */
      readonly recoverable?: false;
    } = {},
  ) {
    super(`tool ${toolId} denied: ${reason}`, toolId, options.cause);
    this.toolId = toolId;
    if (options.guardReason !== undefined) this.guardReason = options.guardReason;
    // Only a pure scope denial is safe to feed back: it happened before any effect and the
    // floor still refuses every retry.
    this.recoverable =
      (reason === 'media_scope_denied' || reason === 'scope_escape') &&
      options.recoverable !== false;
  }
}

/** The interactive approval gate refused (or could not ask). Fatal, never retried. */
export class ToolDeniedByUserError extends ToolDispatchError {
  readonly code = 'tool_denied';
  readonly runErrorCode = 'tool_denied';
  override readonly name = 'ToolDeniedByUserError';
  override readonly toolId: ToolId;
  /** The approver's display-safe label, kept off the message. */
  readonly userReason?: string;
  /** True when no person made this refusal (see `NOBODY_DECIDED_REASONS`). */
  readonly nobodyDecided: boolean;

  constructor(
    toolId: ToolId,
    readonly reason: ToolDeniedByUserReason,
    options: { readonly cause?: unknown; readonly userReason?: string } = {},
  ) {
    super(`tool ${toolId} denied by approval: ${reason}`, toolId, options.cause);
    this.toolId = toolId;
    this.nobodyDecided = NOBODY_DECIDED_REASONS.includes(reason);
    if (options.userReason !== undefined) this.userReason = options.userReason;
  }
}

/** One invalid field: its dot path and a fixed problem code, never the value. */
export interface ToolArgsIssue {
  readonly field: string;
  readonly problem: string;
}

/** The effective args failed validation or the secret-taint check. Loop-correctable. */
export class ToolArgsInvalidError extends ToolDispatchError {
  readonly code = 'tool_args_invalid';
  readonly runErrorCode = 'validation';
  override readonly name = 'ToolArgsInvalidError';
  override readonly toolId: ToolId;
  /** Dot paths of the offending fields (`(root)` for the whole object), in code-unit order. */
  readonly fields: readonly string[];
  readonly issues: readonly ToolArgsIssue[];

  constructor(
    toolId: ToolId,
    issues: readonly (ToolArgsIssue | string)[],
    options: { readonly cause?: unknown } = {},
  ) {
    // UTF-16 code-unit order, not schema order: the same refusal reads the same whatever the
    // schema's key order or the ambient locale.
    const normalised = issues
      .map((issue) => (typeof issue === 'string' ? { field: issue, problem: 'invalid' } : issue))
      .sort((a, b) => compareCodeUnits(a.field, b.field) || compareCodeUnits(a.problem, b.problem));
    const fields = [...new Set(normalised.map((issue) => issue.field))];
    const detail = normalised.map((issue) => `${issue.field} (${issue.problem})`).join(', ');
    super(`tool ${toolId} args invalid: ${detail || '(root) (invalid)'}`, toolId, options.cause);
    this.toolId = toolId;
    this.fields = fields;
    this.issues = normalised;
  }
}

/** Options of a `ToolExecutionError`. */
export interface ToolExecutionErrorOptions {
  /** The host's original error, for logs; never on the message. */
  readonly cause?: unknown;
  /** Safe to feed back within the turn (an idempotent read). Default false. */
  readonly recoverable?: boolean;
  /** A fresh node retry may re-run it. Default true; false when a retry could repeat an effect. */
  readonly retryable?: boolean;
  /** The tool itself reported a model-fixable error (an MCP `isError` result). */
  readonly correctable?: boolean;
  /** A bounded, secret-redacted, model-facing detail (e.g. an MCP tool's error text). */
  readonly detail?: string;
}

/** The host arm threw a non-cancel error. `reason` is a short secret-free code. */
export class ToolExecutionError extends ToolDispatchError {
  readonly code = 'tool_failed';
  readonly runErrorCode = 'tool_failed';
  override readonly name = 'ToolExecutionError';
  override readonly retryable: boolean;
  override readonly recoverable: boolean;
  override readonly toolId: ToolId;
  readonly correctable: boolean;
  readonly detail?: string;

  constructor(
    toolId: ToolId,
    readonly reason: string,
    options: ToolExecutionErrorOptions = {},
  ) {
    super(`tool ${toolId} failed: ${reason}`, toolId, options.cause);
    this.toolId = toolId;
    this.retryable = options.retryable ?? true;
    this.recoverable = options.recoverable ?? false;
    this.correctable = options.correctable ?? false;
    if (options.detail !== undefined) this.detail = options.detail;
  }
}

/** The dispatch was aborted; cancel wins over every other outcome. */
export class ToolCancelledError extends ToolDispatchError {
  readonly code = 'cancelled';
  readonly runErrorCode = 'cancelled';
  override readonly name = 'ToolCancelledError';

  constructor(toolId?: ToolId, options: { readonly cause?: unknown } = {}) {
    super(
      toolId === undefined ? 'tool call cancelled' : `tool ${toolId} cancelled`,
      toolId,
      options.cause,
    );
  }
}
