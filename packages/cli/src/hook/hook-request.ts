/**
 * The contract between an agent's pre-tool event and toolhost's judgement. Each agent adapter
 * (`agents/<agent>.ts`) turns its own event into one `HookRequest`; the judge
 * (`judge-hook-request.ts`) turns that into one `HookVerdict`; the adapter writes the verdict in
 * the agent's own answer format. Nothing here is trusted: every field came from the agent, and
 * through it from the model.
 */

/** The agents `toolhost hook --agent` answers. */
export const HOOK_AGENTS = ['claude-code', 'gemini', 'codex'] as const;

/** One of `HOOK_AGENTS`. */
export type HookAgent = (typeof HOOK_AGENTS)[number];

/** What one agent tool call would touch, in toolhost's terms. Paths are as the agent sent them. */
export type HookRequest =
  /** Reads one file (Read, NotebookRead, read_file). */
  | { readonly kind: 'read'; readonly paths: readonly string[] }
  /** Writes, creates or edits files (Write, Edit, MultiEdit, NotebookEdit, apply_patch). */
  | { readonly kind: 'write'; readonly paths: readonly string[] }
  /**
   * Reads a whole tree below `root` (Glob, Grep, LS, search_file_content). `root` absent: the
   * agent's cwd.
   */
  | { readonly kind: 'tree'; readonly root?: string }
  /** Fetches one URL (WebFetch, web_fetch). */
  | { readonly kind: 'fetch'; readonly urls: readonly string[] }
  /** A web search through the agent's own provider (WebSearch, google_web_search). */
  | { readonly kind: 'search' }
  /** A tool of an MCP server the agent is connected to. */
  | { readonly kind: 'mcp'; readonly server: string; readonly tool: string }
  /** A shell command string (Bash, run_shell_command, shell, exec_command). */
  | { readonly kind: 'shell'; readonly command: string; readonly cwd?: string }
  /**
   * No effect outside the agent itself: a todo list, a plan, a question to its user, a subagent
   * (whose own tool calls come through the hook again), reading a background shell's output.
   */
  | { readonly kind: 'inert' }
  /** A tool toolhost does not know: always denied. */
  | { readonly kind: 'unknown' };

/** One parsed pre-tool event. */
export interface HookEvent {
  readonly agent: HookAgent;
  /** The agent's tool name, as sent (shown in reasons and the audit log after sanitising). */
  readonly toolName: string;
  /** The agent's current directory, absolute: relative paths in the request resolve against it. */
  readonly cwd: string;
  readonly sessionId?: string;
  readonly request: HookRequest;
}

/** toolhost's answer to one event, before it is written in the agent's format. */
export type HookVerdict =
  | { readonly decision: 'allow'; readonly reason: string }
  | { readonly decision: 'ask'; readonly reason: string }
  /** `rule`: a stable code (`scope_escape`, `protected_path`, `not_granted`, …) for the audit. */
  | { readonly decision: 'deny'; readonly rule: string; readonly reason: string }
  /** Allowed only as rewritten: the shell command becomes `command` (the sandbox wrapper). */
  | { readonly decision: 'rewrite'; readonly reason: string; readonly command: string };

/** What the adapter writes: stdout (one JSON document or nothing), stderr, the exit code. */
export interface HookAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** What an adapter can express; the judge asks for nothing the agent cannot do. */
export interface HookAbilities {
  /** The agent runs a rewritten shell command (else a sandboxed shell is a deny with a how-to). */
  readonly rewrite: boolean;
  /** The agent can ask its user (else `ask` is answered as deny). */
  readonly ask: boolean;
}

/** One agent's event reader and answer writer. */
export interface HookAdapter {
  readonly agent: HookAgent;
  readonly abilities: HookAbilities;
  /** Throws `HookInputError` on anything that is not a well-formed pre-tool event. */
  parse(event: unknown): HookEvent & { readonly toolInput: Readonly<Record<string, unknown>> };
  /**
   * The answer in the agent's format. `toolInput` is the event's own input, for a rewrite that
   * keeps every other field. `verdict` never asks for what `abilities` says the agent lacks.
   */
  answer(verdict: HookVerdict, toolInput: Readonly<Record<string, unknown>>): HookAnswer;
  /** The answer to input that could not be parsed at all: a deny the agent honours. */
  answerMalformed(reason: string): HookAnswer;
}

/** A pre-tool event toolhost cannot read; `reason` is fixed text, never the input. */
export class HookInputError extends Error {
  readonly kind = 'hook_input' as const;
  constructor(readonly reason: string) {
    super(`toolhost hook: ${reason}`);
    this.name = 'HookInputError';
  }
}
