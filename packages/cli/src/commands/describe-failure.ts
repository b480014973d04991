import {
  ToolArgsInvalidError,
  ToolDeniedByUserError,
  ToolDispatchError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  UnknownToolError,
} from '@toolhost/core';
import { CliExitError, CliUsageError } from '../cli-error.js';
import { EXIT_CODES, exitCodeFor } from '../exit-codes.js';
import { UiNotRunningError } from '../ui/ui-not-running-error.js';
import { describeJournalFailure } from './describe-journal-failure.js';

/** A failure as the CLI reports it: secret-free by construction (fixed templates, codes, fields). */
export interface FailureReport {
  readonly exitCode: number;
  readonly code: string;
  readonly name: string;
  readonly message: string;
  readonly reason?: string;
  /** The approver's display-safe label, or the approval hook's "how to allow it". */
  readonly userReason?: string;
  readonly fields?: readonly string[];
  readonly hint?: string;
  /** A tool-reported error text, redacted and bounded by the engine. */
  readonly detail?: string;
}

/** Maps anything a command threw to its report; an unknown throw is an internal failure. */
export function describeFailure(error: unknown): FailureReport {
  const journal = describeJournalFailure(error);
  if (journal !== undefined) return journal;
  if (error instanceof CliUsageError) {
    return { exitCode: error.exitCode, code: 'usage', name: error.name, message: error.message };
  }
  if (error instanceof UiNotRunningError) {
    const { exitCode, code, name, message, reason, hint } = error;
    return { exitCode, code, name, message, reason, hint };
  }
  if (error instanceof CliExitError) {
    return { exitCode: error.exitCode, code: 'refused', name: error.name, message: error.message };
  }
  if (error instanceof ToolDispatchError) {
    return {
      exitCode: exitCodeFor(error.code),
      code: error.code,
      name: error.name,
      message: error.message,
      ...detail(error),
    };
  }
  // Never print a foreign error's message: it may hold a path or a value.
  return {
    exitCode: EXIT_CODES.executionFailed,
    code: 'internal',
    name: 'InternalError',
    message: 'toolhost: internal error (run with NODE_DEBUG=toolhost for details)',
  };
}

function detail(error: ToolDispatchError): Partial<FailureReport> {
  if (error instanceof ToolPolicyError) return { reason: error.reason, ...policyHint(error) };
  if (error instanceof ToolDeniedByUserError) {
    return {
      reason: error.reason,
      ...(error.userReason === undefined ? {} : { userReason: error.userReason }),
    };
  }
  if (error instanceof ToolArgsInvalidError) return { fields: error.fields };
  if (error instanceof ToolExecutionError) {
    // `detail` is the tool's own error text (an MCP isError result), already redacted and bounded.
    return {
      reason: error.reason,
      ...(error.detail === undefined ? {} : { detail: error.detail }),
      ...executionHint(error),
    };
  }
  if (error instanceof ToolUnavailableError) return unavailableDetail(error);
  if (error instanceof UnknownToolError)
    return { hint: 'list granted tools with `toolhost tools`' };
  return {};
}

// The arm exists but fails closed: the message already says what to install; the hint names
// this command line's switches, which the host's message cannot know.
function unavailableDetail(error: ToolUnavailableError): Partial<FailureReport> {
  const { reason } = error;
  if (reason === undefined) {
    return { reason: error.capability, hint: 'this host has no such arm; see `toolhost doctor`' };
  }
  switch (reason) {
    case 'sandbox_unavailable':
      return {
        reason,
        hint: 'install bubblewrap (apt-get install bubblewrap), or pass --sandbox off (or "process": { "sandbox": "off" }) to run commands on the host; `toolhost doctor` shows why',
      };
    case 'sandbox_network_unavailable':
      return {
        reason,
        hint: 'build @toolhost/sandbox-net (a C compiler, then npm rebuild), or drop --sandbox-allow-domain / process.network',
      };
  }
}

// write_file never creates a missing parent unasked; the argument that does is the fix.
function executionHint(error: ToolExecutionError): { hint?: string } {
  if (error.toolId === 'write_file' && error.reason === 'not_found') {
    return { hint: 'a parent directory does not exist: pass "createDirs": true to create it' };
  }
  return {};
}

function policyHint(error: ToolPolicyError): { hint?: string } {
  switch (error.reason) {
    case 'not_granted':
      return { hint: 'add the tool to "tools" in toolhost.config.json, or pass --tools' };
    case 'command_not_allowed':
      return {
        hint: 'add the exact command to "allowedCommands" (or --allow-command); `toolhost explain` shows why',
      };
    case 'domain_not_allowed':
      return { hint: 'add the host to "allowedDomains" (or --allow-domain)' };
    case 'scope_escape':
      return {
        hint: 'the path is outside the filesystem tier (see --fs-scope and "extraRoots")',
      };
    case 'protected_path':
      return {
        hint: 'the path is on the host floor (secrets, VCS, shell files, config): no setting allows it',
      };
    case 'gate_required':
      return { hint: 'this tool needs a human gate: pass --gate-approved to `toolhost call`' };
    default:
      return {};
  }
}
