import type { AbortSignalLike } from './abort-signal-like.js';
import type { EffectJournal } from './journal/effect-journal.js';
import type { ToolHostCallOptions } from './tool-host.js';
import type { PolicyTarget, ToolId } from './tool-def.js';

/** The FS scope tier a host enforces; descriptive on the context, never a grant. */
export type FsScopeTier = 'sandboxed' | 'project' | 'full';

/** A node's resolved tool config: config-only values and the input/output mappings. */
export interface ToolNodeConfig {
  /** Config-only values, merged last (config wins); a model can never set these keys. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /**
   * Already-resolved argument values, merged over the model's. Supplying any needs
   * `ToolDispatchContext.secretArgKeys` (`new Set()` when none is tainted), else the dispatch
   * refuses as `unverified_provenance`.
   */
  readonly inputMapping?: Readonly<Record<string, unknown>>;
  /** State key → dot path into the FULL result; absent ⇒ `output` is the full result. */
  readonly outputMapping?: Readonly<Record<string, string>>;
}

/** The resolved guardrail policy. Empty or absent lists deny all. */
export interface ToolPolicy {
  /** Exact command strings (command + args joined by one space). */
  readonly allowedCommands?: readonly string[];
  /** Opt-in whole-string `*`/`?` globs; a glob-only match also passes the argument-trap floor. */
  readonly allowedCommandGlobs?: readonly string[];
  /** Exact hosts for `http` egress (normalised: lowercase, no trailing dot, punycode). */
  readonly allowedDomains?: readonly string[];
  /**
   * What `mcp_call` may reach beyond the discovered `mcp_{server}_{tool}` tools the grant names:
   * `server/tool`, or `server/*` for every tool of a server. Absent or empty: only those granted.
   */
  readonly allowedMcpTools?: readonly string[];
  /**
   * Whether the host runs every spawned process in its OS sandbox. The engine cannot see the
   * host, so the host says it; absent is unknown and judged as `off` (the stricter floor):
   * without a sandbox, extracting and patching tools are never glob-allowable.
   */
  readonly processSandbox?: ProcessSandboxSignal;
}

/** `required`: every spawned process is sandboxed or refused; `off`: none is. */
export type ProcessSandboxSignal = 'required' | 'off';

/** Result-bounding ceilings for the model-facing copy. */
export interface ToolResultLimits {
  readonly maxBytes: number;
  readonly maxLines: number;
}

/** The governed action classes per-tool approval distinguishes. */
export type ToolActionClass = 'fs_write' | 'process' | 'egress' | 'os';

/** Secret-free, display-only preview: never a full URL or query, never a secret. */
export interface ToolActionPreview {
  /** fs_write: the target path, scrubbed whole-string. */
  readonly path?: string;
  /** fs_write of a move: where `path` goes, scrubbed whole-string. */
  readonly destination?: string;
  /** process: the command string, scrubbed whole-string. */
  readonly command?: string;
  /** egress: the target host only (an http URL's, or a search tool's configured endpoint's). */
  readonly host?: string;
  /** fs_write of an edit: its replacements as before/after from the args, scrubbed and capped. */
  readonly change?: string;
  /** fs_write of a whole text (`write_file`): whether it replaces the file or is appended. */
  readonly writeMode?: 'replace' | 'append';
  /** fs_write of a whole text: its full length in UTF-8 bytes. */
  readonly byteCount?: number;
  /**
   * fs_write of a whole text: its start, scrubbed before it is cut to at most
   * `MAX_PREVIEW_CONTENT_BYTES` UTF-8 bytes, control characters shown escaped. Absent from
   * `unredactedPreview`: nothing classifies by content, so no raw copy is handed around.
   */
  readonly content?: string;
  /** True when `content` is only the start of the text. */
  readonly contentTruncated?: boolean;
  /** egress through MCP: the configured server's name, scrubbed. */
  readonly server?: string;
  /** egress through MCP: the tool called on that server, scrubbed. */
  readonly tool?: string;
}

/** What the approval hook is asked. */
export interface ToolApprovalRequest {
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  readonly preview: ToolActionPreview;
  /**
   * The same fields UNSCRUBBED, for in-process classification only (a protected-path check).
   * Never serialize, log, persist or forward it.
   */
  readonly unredactedPreview?: ToolActionPreview;
}

/** The approver's verdict; `reason` is a display-safe label. */
export type ToolApprovalDecision =
  | { readonly outcome: 'approve' }
  | {
      readonly outcome: 'reject';
      /** A secret-free, display-safe label. */
      readonly reason?: string;
      /**
       * Who refused when no person did: `unasked` (a mode, or a surface with no human to ask)
       * reports as `no_approval_hook`, `timeout` (nobody answered in time) as `approval_timeout`,
       * `withdrawn` (the caller left or the surface closed while it waited) as
       * `approval_withdrawn`, `scope_escape` (a target the jail would refuse) as that policy
       * denial. Absent: a person said no (`user_rejected`). It only labels a refusal.
       */
      readonly refusal?: ToolApprovalRefusal;
    };

/** How a hook labels a refusal no person made (see `ToolApprovalDecision`). */
export type ToolApprovalRefusal = 'unasked' | 'timeout' | 'withdrawn' | 'scope_escape';

/** The host-injected consent hook; an abort while prompting routes to the cancel path. */
export type ConfirmActionHook = (
  request: ToolApprovalRequest,
  signal?: AbortSignalLike,
) => Promise<ToolApprovalDecision>;

/**
 * The `approval_requested` event: the request without `unredactedPreview`. Its preview is the
 * scrubbed, bounded one a person is shown, a write's start included: this is the live feed to the
 * person's UI. A sink that keeps it for long chooses less (the CLI's audit log keeps a write's
 * mode and size, never its text: the scrubber is best-effort and a log outlives the decision).
 */
export interface ToolApprovalRequestedEvent {
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  readonly preview: ToolActionPreview;
}

/** Present ⇒ the interactive-approval regime is active; governed dispatches need a decision. */
export interface ToolApprovalContext {
  /** Absent under an active regime ⇒ fail-closed `no_approval_hook`. */
  readonly confirm?: ConfirmActionHook;
  /** Called just before `confirm` for every governed dispatch reaching the gate. */
  readonly emitApprovalRequested?: (event: ToolApprovalRequestedEvent) => void;
}

/** What `registry.preflight` knows about a call that every pre-approval check let through. */
export interface ToolPreflight {
  /** The governed class; absent ⇒ not governed (no approval, no guard). */
  readonly action?: ToolActionClass;
  /** The same scrubbed, secret-free preview `confirm` would receive; present when governed. */
  readonly preview?: ToolActionPreview;
}

/**
 * What the org governor is asked about one governed dispatch: the scrubbed preview only, since a
 * governor may sit across the network.
 */
export interface ActionGuardRequest {
  readonly toolId: ToolId;
  readonly nodeId: string;
  readonly action: ToolActionClass;
  readonly preview: ToolActionPreview;
}

/** The governor's verdict; `reason` is a display-safe label, kept off the error message. */
export type ActionGuardDecision =
  { readonly outcome: 'allow' } | { readonly outcome: 'deny'; readonly reason?: string };

/** How the host call of an allowed dispatch ended, as `commit` records it. */
export type ActionCommitOutcome = 'succeeded' | 'failed' | 'cancelled';

/**
 * The org governor: consulted for every governed dispatch after the policy checks, with or
 * without `ctx.approval`. It can only further restrict; a throw or an unreadable verdict denies.
 */
export interface ActionGuard {
  /** Decides before any side effect; an abort while deciding cancels the call. */
  decide(request: ActionGuardRequest, signal?: AbortSignalLike): Promise<ActionGuardDecision>;
  /**
   * Records how the allowed call's host call ended, once it settled; an allowed call that never
   * reached the host (a later refusal or cancel) gets no commit. A throw cannot undo an effect
   * that already ran, so it ends the call fatally (`guard_commit_failed`, never retried); cancel
   * still wins.
   */
  commit?(request: ActionGuardRequest, outcome: ActionCommitOutcome): void | Promise<void>;
}

/** Everything one dispatch is judged and run under. */
export interface ToolDispatchContext {
  /** Trusted, execution-only lifetime authority; never tool arguments. */
  readonly hostCallOptions?: ToolHostCallOptions | undefined;
  readonly nodeId: string;
  /** The narrowed grant; a registered tool outside it is refused. */
  readonly grantedToolIds: ReadonlySet<ToolId>;
  readonly config: ToolNodeConfig;
  readonly toolPolicy: ToolPolicy;
  /** Descriptive only: the host's captured tier is what is enforced. */
  readonly fsScope: FsScopeTier;
  /** The human-gate floor for `requiresGateApproval` tools. */
  readonly gateApproved: boolean;
  /** Present ⇒ interactive approval of governed classes (fail-closed without `confirm`). */
  readonly approval?: ToolApprovalContext;
  /** The org governor for governed dispatches, consulted whether or not `approval` is present. */
  readonly actionGuard?: ActionGuard;
  /**
   * Effective-arg keys whose values are secret-tainted; present ones are refused and the rest
   * hidden from every projection. A nested path (`content.value`) taints its top-level key
   * (`content`); an entry naming no parameter of the tool refuses (`unknown_secret_arg_key`).
   * Absent is unverified provenance, not clean: with `config.inputMapping` supplying values the
   * dispatch refuses (`unverified_provenance`). An explicit empty set means verified clean.
   */
  readonly secretArgKeys?: ReadonlySet<string>;
  /** Engine delegate for `invoke_agent`; absent ⇒ `ToolUnavailableError`. */
  readonly invokeAgent?: (nodeId: string, input: unknown) => Promise<unknown>;
  /**
   * The model-facing ceilings; absent ⇒ `DEFAULT_TOOL_RESULT_LIMITS`, a partial object is merged
   * over them. A ceiling that is not a positive safe integer refuses the call (`invalid_limits`)
   * before anything runs.
   */
  readonly limits?: Partial<ToolResultLimits>;
  /**
   * Synchronous trusted admission immediately before the host call; a throw refuses, and so
   * does a thenable return (no asynchronous work may happen here).
   */
  readonly beforeDispatch?: (toolId: ToolId, target?: PolicyTarget) => void;
  /** The media scope this dispatch reads and stores media under; absent ⇒ no media read. */
  readonly mediaScope?: string;
  /**
   * Present ⇒ the durable effect bracket: a journaled tool's call is prepared after approval and
   * settled after bounding, so a resumed run (same `runId`, same call ids) replays it instead of
   * repeating its effect. Absent ⇒ nothing is journaled.
   */
  readonly journal?: ToolJournalContext;
  readonly signal?: AbortSignalLike;
}

/** The journal a run's dispatches are bracketed by. */
export interface ToolJournalContext {
  readonly store: EffectJournal;
  /** The run the calls belong to; a resumed run passes the same id. Non-empty. */
  readonly runId: string;
  /** The cap on one settled record's JSON, in bytes; default 8 MiB (`DEFAULT_MAX_RECORD_BYTES`). */
  readonly maxRecordBytes?: number;
}
