import type { ToolDispatchContext } from './dispatch-context.js';
import type { ToolHost } from './tool-host.js';

/** Exact-match registry key: a built-in catalog id, `mcp_{server}_{tool}` or `plugin_{pkg}_{tool}`. */
export type ToolId = string;

/** Opaque JSON Schema data the engine carries (never the `@types/json-schema` type). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Where a tool's guardrail target lives in its effective args. */
export interface PolicyTarget {
  /** The command string the allowlist matches: command + args joined by one space. */
  readonly command?: string;
  /** The same command as argv, so the argument-trap floor sees real argument boundaries. */
  readonly argv?: readonly string[];
  readonly url?: string;
  readonly path?: string;
  /** A move's second path (`move_file`): judged and shown beside `path`, never instead of it. */
  readonly destination?: string;
  /**
   * An edit's replacements, taken from the args: the approver and the governor see them as a
   * scrubbed, capped before/after (`ToolActionPreview.change`), never read from the file.
   */
  readonly edits?: readonly PolicyTargetEdit[];
  /**
   * A write's full text (`write_file`): the approver sees its byte count and a scrubbed, capped
   * start (`ToolActionPreview.content`), never more. Shown only; no policy judges it.
   */
  readonly content?: string;
  /** Whether `content` replaces the file or is appended to it. */
  readonly writeMode?: 'replace' | 'append';
  /**
   * A config-pinned endpoint's host only (`web_search`): shown to the approver, never judged by
   * the http allowlist (the `search` egress policy governs it) and never the path or query.
   */
  readonly endpointHost?: string;
  /** An MCP call's configured server name: shown to the approver. */
  readonly server?: string;
  /** The tool called on that MCP server: shown to the approver. */
  readonly tool?: string;
}

/** One replacement of an edit, as the model sent it. */
export interface PolicyTargetEdit {
  readonly oldText: string;
  readonly newText: string;
  readonly replaceAll?: boolean;
}

/**
 * What a tool's calls do to what already exists, as a client is told before calling (MCP tool
 * annotations). A hint only, never a guardrail: the flags of `ToolPolicyClass` govern.
 */
export interface ToolEffect {
  /** No call changes anything outside itself (a read; a search sends a query and changes nothing). */
  readonly readOnly: boolean;
  /** Some call may overwrite or delete what exists; false: calls only read or add. */
  readonly destructive: boolean;
  /** Every call repeated with the same arguments has no further effect. */
  readonly idempotent: boolean;
}

/** The guardrail and capability classification of a tool. */
export interface ToolPolicyClass {
  /** Needs the FS scope tier: `read_file`, `write_file`, `list_directory`. */
  readonly fsScoped: boolean;
  /** The fs operation is a write; gates per-tool approval as `fs_write`. */
  readonly fsWrite?: boolean;
  /** Spawns an OS process under the `allowedCommands` allowlist. */
  readonly spawnsProcess: boolean;
  /** Outbound egress, discriminated because each kind has its own policy. */
  readonly egress?: 'http' | 'search' | 'mcp';
  /** An OS-integration action (clipboard, notification): always governed by approval. */
  readonly os?: boolean;
  /** Refused unless `ctx.gateApproved` (a human gate): `git_commit`. */
  readonly requiresGateApproval: boolean;
  /**
   * Whether the durable effect bracket journals this tool's calls under `ctx.journal`. Absent:
   * every side-effecting tool (fs write, process, egress, os) is, a read is not. `'none'` for a
   * tool whose effect is safe to repeat (`git_status`); `'effect'` journals a tool the flags
   * call a read. Any other value journals (fail closed).
   */
  readonly journal?: 'effect' | 'none';
  /**
   * A boolean argument that, when exactly `true` in the validated args, makes the call a read:
   * ungoverned (no guard, no approval), not journaled, not a side effect (`edit_file`'s `dryRun`).
   * Any other value, or one that cannot be read, leaves the call governed as the flags say.
   */
  readonly readOnlyWhen?: string;
  /**
   * The tool's own account of its effect, for hints only. Absent (a plugin or MCP tool that
   * says nothing): unknown, and a surface assumes the worst (may change and destroy, not
   * idempotent, reaches the outside world).
   */
  readonly effect?: ToolEffect;
}

/** A registered tool: identity, executable validator, classification and a pure dispatcher. */
export interface ToolDef<Args = unknown, Result = unknown> {
  readonly id: ToolId;
  readonly source: 'builtin' | 'mcp' | 'plugin';
  readonly description: string;
  /**
   * Validates the COMPLETE effective argument set (model + inputMapping + config-only) and throws
   * `ToolArgsInvalidError` naming fields, never values.
   */
  parseArgs(raw: unknown): Args;
  /** The model-visible parameter schema; never contains a `configOnlyParams` key. */
  readonly llmVisibleParams: JsonSchema;
  /** Keys whose values come only from `ctx.config.parameters`; a model can never set them. */
  readonly configOnlyParams?: readonly string[];
  readonly policy: ToolPolicyClass;
  /**
   * The guardrail target in the effective args. SECURITY: an `egress: 'http'` tool without one
   * is refused at registration; a `spawnsProcess` tool without one must run a config-pinned
   * command (`git_status`, `git_commit`), because its allowlist check is skipped.
   */
  policyTarget?(args: Args): PolicyTarget;
  /** Side effects only through `host`; the pipeline bounds the result afterwards. */
  dispatch(args: Args, host: ToolHost, ctx: ToolDispatchContext): Promise<Result>;
}

/**
 * A `ToolDef` with its argument and result types erased, as the registry stores them. The
 * members that take `Args` are methods, so any `ToolDef<A, R>` is assignable to this.
 */
export type AnyToolDef = ToolDef<unknown, unknown>;
