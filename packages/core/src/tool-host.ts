import type { AbortSignalLike } from './abort-signal-like.js';
import type { ToolActionClass, ToolResultLimits } from './dispatch-context.js';
import type { FsCapability } from './fs-capability.js';
import type { PolicyTarget, ToolId } from './tool-def.js';

/**
 * The capability seam: the engine's only path to a side effect. Every arm is optional; a tool
 * whose arm is absent fails with `ToolUnavailableError`, never a crash.
 */
export interface ToolHost {
  /** File read/write/list, jailed to the host's FS scope tier. */
  readonly fs?: FsCapability;
  /** Process spawn: host-resolved executable, minimal base env, `shell: false`. */
  readonly process?: ProcessCapability;
  /** Outbound HTTPS through the shared SSRF primitive; credentials resolved inside the host. */
  readonly egress?: EgressCapability;
  /** Clipboard and native notifications. */
  readonly os?: OsCapability;
  /** MCP client transport. */
  readonly mcp?: McpCapability;
  /** Run-scoped spill for over-ceiling results. */
  readonly outputStore?: ToolOutputStore;
  /** Content-addressed media store behind `media://sha256-…` handles. */
  readonly media?: MediaStore;
  /**
   * One call's view of this host, which dispatch gives the tool and bounds the result with:
   * the same arms, every spill made through them charged to one per-call budget. Absent ⇒
   * the host itself, under `outputStore.runCall` when the store has one. Called as a method:
   * a copy of the host with an arm replaced gets a view of that copy.
   */
  readonly forCall?: (this: ToolHost | void) => ToolHost;
  /**
   * The host's own refusals that need no person, judged before anyone is asked (a write on the
   * host floor, out of its scope tier, through a symlink out of it): throws the `ToolPolicyError`
   * its arm would throw for this target, and nothing else. It changes nothing and reads only what
   * resolving the path needs. `dispatch` and `registry.preflight` call it for every governed
   * call after the engine's own checks, so a call the host will refuse is never put to the guard
   * or a human; the arm still judges again when the effect runs. Absent: the arm decides alone.
   */
  readonly preflight?: (request: HostPreflightRequest) => void;
}

/** What `ToolHost.preflight` is asked about one governed call. */
export interface HostPreflightRequest {
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  /** The validated call's target (frozen): the same value the guard, approval and arm see. */
  readonly target: PolicyTarget;
}

/** Trusted, execution-only lifetime authority a runner may pass to host calls. */
export interface ToolHostCallOptions {
  readonly retainWork?: <T>(factory: () => Promise<T>) => Promise<T>;
  /**
   * Set by a journaled dispatch: `effectIdempotencyKey(runId, callKey)`, the same for every
   * attempt of one call of one run. The host passes it where the other side can use it (an
   * `Idempotency-Key` header, MCP `_meta`, `TOOLHOST_IDEMPOTENCY_KEY` for a process), so an
   * operator or a retry can settle an unresolved claim safely. Absent on an unjournaled call.
   */
  readonly idempotencyKey?: string;
}

/** A handle-only media part (bytes live in the host's media store, or ride `data` once read). */
export interface DurableMediaPart {
  readonly type: 'media';
  /** `media://sha256-<64 hex>` */
  readonly handle: string;
  readonly mimeType: string;
  readonly sizeBytes: number;
  /** Inclusive byte range this part covers, when it is a slice. */
  readonly range?: { readonly start: number; readonly end: number };
  /** The bytes of `range` (or the whole object), once read through `read_media`. */
  readonly data?: Uint8Array;
}

// ── fs ── (the arm's requests and results live in ./fs-capability.ts)

export type {
  FsReadRequest,
  FileRead,
  FsWriteRequest,
  FileWrite,
  FsListRequest,
  DirectoryEntry,
  DirectoryListing,
  FsSearchRequest,
  FileSearchMatch,
  FileSearchStop,
  FileSearchResult,
  FsEdit,
  FsEditRequest,
  FileEdit,
  FsMoveRequest,
  FileMove,
  FsMakeDirectoryRequest,
  DirectoryMake,
  FsCapability,
} from './fs-capability.js';

// ── process ──────────────────────────────────────────────────────────────────────────────────

/** Spawn options the engine passes; the host jails `cwd` and enforces the budgets. */
export interface SpawnOpts {
  /** Relative to the host root; jailed like an fs path. */
  readonly cwd?: string;
  /** Wall-clock budget; the host clamps it to its maximum. */
  readonly timeoutMs?: number;
  readonly hostCallOptions?: ToolHostCallOptions;
}

/** A finished process. stdout, stderr and the exit status are untrusted. */
export interface ProcessResult {
  /** `null` when the process ended by a signal. */
  readonly exitCode: number | null;
  readonly signal?: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
  readonly timedOut?: boolean;
  /** Set when a stream overflowed its bounded buffer; the overflow went to the output store. */
  readonly truncated?: {
    readonly stdout?: SpilledResult | { readonly byteLength: number };
    readonly stderr?: SpilledResult | { readonly byteLength: number };
  };
}

/** The process arm. */
export interface ProcessCapability {
  /**
   * Spawns an already allowlist-checked command with `shell: false`. The host resolves the
   * executable, builds the minimal base env, merges only the declared vars it allows and
   * enforces the FS scope and the CPU/memory/time budget.
   */
  spawn(
    command: string,
    args: readonly string[],
    declaredEnv: Readonly<Record<string, string>>,
    opts: SpawnOpts,
    signal?: AbortSignalLike,
  ): Promise<ProcessResult>;
}

// ── egress ───────────────────────────────────────────────────────────────────────────────────

/** An outbound request the engine has already policy-checked. */
export interface EgressRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Opaque secret-store reference the host resolves and attaches as `authorization`. */
  readonly credentialRef?: string;
  /**
   * The call's exact-host allowlist, re-applied by the host on every redirect hop. Absent ⇒ a
   * redirect may only stay on the original host.
   */
  readonly allowedDomains?: readonly string[];
  /**
   * The header the resolved credential rides on. Absent ⇒ `authorization` (a bare token is sent
   * as `Bearer <token>`); any other header gets the raw secret (Brave's `x-subscription-token`).
   */
  readonly credentialHeader?: string;
  /** The media scope a binary body's handle is stored under (`ToolDispatchContext.mediaScope`). */
  readonly mediaScope?: string;
}

/** A response; `body` is UTF-8 text (bounded at the source), or empty with `media` set. */
export interface EgressResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The URL of the last hop. */
  readonly url?: string;
  readonly media?: DurableMediaPart;
  /** Set when the body cap cut the body; the overflow went to the output store when it could. */
  readonly truncated?: SpilledResult | { readonly byteLength: number };
}

/** The egress arm. */
export interface EgressCapability {
  /** Performs a policy-checked HTTPS request through the SSRF primitive. */
  fetch(
    request: EgressRequest,
    signal?: AbortSignalLike,
    options?: ToolHostCallOptions,
  ): Promise<EgressResponse>;
}

// ── os ───────────────────────────────────────────────────────────────────────────────────────

/** Clipboard and notifications through platform helpers, model text as argv data only. */
export interface OsCapability {
  readClipboard(signal?: AbortSignalLike): Promise<string>;
  notify(
    notification: { readonly title: string; readonly body: string },
    signal?: AbortSignalLike,
  ): Promise<{ readonly delivered: true }>;
}

// ── mcp ──────────────────────────────────────────────────────────────────────────────────────

/** One MCP tool call. */
export interface McpCallInput {
  readonly server: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The MCP client arm. */
export interface McpCapability {
  call(
    input: McpCallInput,
    signal?: AbortSignalLike,
    options?: ToolHostCallOptions,
  ): Promise<unknown>;
}

// ── output store & media store ───────────────────────────────────────────────────────────────

/** A spilled result: an opaque handle (a readable path on the Node host) and its size. */
export interface SpilledResult {
  readonly ref: string;
  readonly byteLength: number;
}

/** A piece of a spilled text: text, or that text's UTF-8 bytes as the host already held them. */
export type SpillPart = string | Uint8Array;

/** Run-scoped store for over-ceiling results, reclaimed when the run ends. */
export interface ToolOutputStore {
  spill(text: string, limits: ToolResultLimits, signal?: AbortSignalLike): Promise<SpilledResult>;
  /**
   * `spill` of the parts' concatenation without joining it: a string part is written as its
   * UTF-8 (core splits only next to an ASCII line break, so no surrogate pair is cut), a byte
   * part verbatim (it already is UTF-8 of the text it stands for). The file, its size and its
   * quota charge are those of `spill(joined)`. Absent ⇒ core joins the parts and calls `spill`.
   */
  readonly spillParts?: (
    parts: readonly SpillPart[],
    limits: ToolResultLimits,
    signal?: AbortSignalLike,
  ) => Promise<SpilledResult>;
  /**
   * Runs one call's host work and its result bounding as one call of the store's spill quota,
   * so what the host spills while working (process output) and the bounded result share a
   * budget. Absent ⇒ the store counts each spill on its own.
   */
  readonly runCall?: <T>(work: () => Promise<T>) => Promise<T>;
}

/** What the media store knows about a handle, read before any byte is. */
export interface MediaInfo {
  readonly handle: string;
  readonly mimeType: string;
  readonly sizeBytes: number;
  /** Scopes allowed to read this object; knowing the hash is not authorization. */
  readonly allowedScopes: readonly string[];
}

/** Content-addressed media store (`media://sha256-<hex>`). */
export interface MediaStore {
  /** `undefined` for an unknown handle. */
  stat(handle: string, signal?: AbortSignalLike): Promise<MediaInfo | undefined>;
  /** Reads the inclusive byte range `[start, end]`. */
  read(
    handle: string,
    range: { readonly start: number; readonly end: number },
    signal?: AbortSignalLike,
  ): Promise<Uint8Array>;
}
