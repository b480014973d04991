import type { ToolDispatchErrorCode } from '@toolhost/core';

/** Process exit codes of every `toolhost` command; documented in docs/cli.md. */
export const EXIT_CODES = Object.freeze({
  /** The call (or command) succeeded. */
  success: 0,
  /** The tool ran and failed (`tool_failed`): a host error, a timeout, a missing helper. */
  executionFailed: 1,
  /** Bad flags, a bad or unreadable config file, bad JSON arguments: nothing ran. */
  usage: 2,
  /** A grant, guardrail, floor or approval refused the call (`tool_denied`). */
  denied: 3,
  /** The arguments failed validation, or no tool has that id. */
  invalidArgs: 4,
  /**
   * The host arm the tool needs is not wired here (`tool_unavailable`), a driver is missing, or
   * `toolhost ui` found no running `serve --ui` page.
   */
  unavailable: 5,
  /**
   * The effect journal holds a claim for this call that never settled (`effect_unresolved`): the
   * effect may have happened, so nothing ran; `toolhost journal resolve` settles it.
   */
  effectUnresolved: 6,
  /** Interrupted (Ctrl-C / SIGINT / SIGTERM): the dispatch was aborted. 128 + SIGINT. */
  cancelled: 130,
});

/** The exit code a dispatch failure code maps to. */
export function exitCodeFor(code: ToolDispatchErrorCode): number {
  switch (code) {
    case 'tool_denied':
      return EXIT_CODES.denied;
    case 'tool_args_invalid':
    case 'unknown_tool':
      return EXIT_CODES.invalidArgs;
    case 'tool_unavailable':
      return EXIT_CODES.unavailable;
    case 'cancelled':
      return EXIT_CODES.cancelled;
    case 'tool_failed':
      return EXIT_CODES.executionFailed;
  }
}
