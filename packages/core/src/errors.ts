import { compareCodeUnits } from './compare-code-units.js';
import { describeName } from './printable-tool-name.js';
import type { ToolId } from './tool-def.js';

export { classifyToolError } from './classify-tool-error.js';
export { withToolId } from './with-tool-id.js';
// Re-exported where they always were; they live apart because they are text helpers, not errors.
export { compareCodeUnits } from './compare-code-units.js';
export { printableToolName } from './printable-tool-name.js';

/** The discriminant every dispatch failure carries. */
export type ToolDispatchErrorCode =
  | 'unknown_tool'
  | 'tool_denied'
  | 'tool_args_invalid'
  | 'tool_unavailable'
  | 'tool_failed'
  | 'cancelled';

/** The closed run-level error code a failure maps to. */
export type RunErrorCode =
  'tool_failed' | 'tool_denied' | 'tool_unavailable' | 'validation' | 'cancelled';

/**
 * Why a grant, guardrail, governor or host floor refused a call before any side effect. The first
 * eight are the engine's; the rest are host floors a `ToolHost` arm throws.
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
  | 'header_not_allowed';

/** Why an interactive approval denied a governed call. */
export type ToolDeniedByUserReason = 'user_rejected' | 'no_approval_hook' | 'approval_error';

/** What an agent loop does with a failure (the seed's failure ladder). */
export type ToolErrorClass = 'correctable' | 'recoverable' | 'fatal' | 'cancelled';

/** Base of every failure `dispatch` throws; switch on `code`. */
export abstract class ToolDispatchError extends Error {
  abstract readonly code: ToolDispatchErrorCode;
  abstract readonly runErrorCode: RunErrorCode;
  /** A fresh node retry may re-run the whole node. */
  readonly retryable: boolean = false;
  /** May be fed back to the model within the turn on surfaces that opt in. */
  readonly recoverable: boolean = false;
  readonly toolId?: ToolId;

  protected constructor(message: string, toolId: ToolId | undefined, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    if (toolId !== undefined) this.toolId = toolId;
  }
}

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

/** A grant, guardrail or host floor refused the call before any side effect. */
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

  constructor(
    toolId: ToolId,
    readonly reason: ToolDeniedByUserReason,
    options: { readonly cause?: unknown; readonly userReason?: string } = {},
  ) {
    super(`tool ${toolId} denied by approval: ${reason}`, toolId, options.cause);
    this.toolId = toolId;
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

/**
 * Why the durable effect bracket failed a journaled call. Each is fatal and never retried:
 * - `effect_unresolved`: a claim was prepared and never settled (a crash, an abort or a host
 *   failure mid-effect): the effect may have happened, so it is never run again; an operator
 *   settles or discards the claim.
 * - `journal_identity_mismatch`: the run already holds this call under another tool or other
 *   effective arguments.
 * - `journal_unavailable`: the store failed before any effect, the runtime has no WebCrypto
 *   digest, or the journal or the call id is unusable (fail closed: nothing ran).
 * - `journal_args_unencodable`: the effective arguments have no canonical JSON encoding (a cycle,
 *   a class instance, a bigint), so no identity can be computed; nothing ran.
 * - `journal_record_invalid`: the settled record cannot be read back; nothing ran.
 * - `journal_media_refused`: the tool answered with a media attachment, which a JSON replay could
 *   not deliver; the effect ran, so its claim is kept (unresolved).
 */
export type EffectJournalErrorReason =
  | 'effect_unresolved'
  | 'journal_identity_mismatch'
  | 'journal_unavailable'
  | 'journal_args_unencodable'
  | 'journal_record_invalid'
  | 'journal_media_refused';

/** The durable effect bracket refused a journaled call; `reason` says why. Fatal, never retried. */
export class EffectJournalError extends ToolDispatchError {
  readonly code = 'tool_failed';
  readonly runErrorCode = 'tool_failed';
  override readonly name = 'EffectJournalError';
  override readonly toolId: ToolId;

  constructor(
    toolId: ToolId,
    readonly reason: EffectJournalErrorReason,
    options: { readonly cause?: unknown } = {},
  ) {
    super(`tool ${toolId} failed: ${reason}`, toolId, options.cause);
    this.toolId = toolId;
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
