import type { ToolDispatchError } from '@toolhost/core';
import {
  EffectJournalError,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  UnknownToolError,
  type EffectJournalErrorReason,
  type ToolArgsIssue,
  type ToolDeniedByUserReason,
  type ToolId,
  type ToolPolicyDenyReason,
  type ToolUnavailableReason,
} from '@toolhost/core';

/**
 * A `ToolDispatchError` as Restate can journal it: string fields only (a terminal error's
 * metadata is `Record<string, string>`), every one of them already secret-free on the error.
 * `kind` is the class; the rest is what that class's constructor needs to be rebuilt exactly.
 */
export type DispatchErrorWire = Readonly<Record<string, string>>;

const WIRE_TAG = 'toolhost.dispatch_error.v1';

/** The error's fields, tagged, for a terminal error's metadata (or a retryable error's message). */
export function encodeDispatchError(error: ToolDispatchError): DispatchErrorWire {
  const wire: Record<string, string> = { tag: WIRE_TAG, kind: error.name, code: error.code };
  if (error.toolId !== undefined) wire['toolId'] = error.toolId;
  if ('reason' in error && typeof error.reason === 'string') wire['reason'] = error.reason;
  if (error instanceof UnknownToolError) wire['availableIds'] = JSON.stringify(error.availableIds);
  if (error instanceof ToolPolicyError) {
    if (error.guardReason !== undefined) wire['guardReason'] = error.guardReason;
    if (error.reason === 'scope_escape' && !error.recoverable) wire['recoverable'] = 'false';
  }
  if (error instanceof ToolDeniedByUserError && error.userReason !== undefined) {
    wire['userReason'] = error.userReason;
  }
  if (error instanceof ToolArgsInvalidError) wire['issues'] = JSON.stringify(error.issues);
  if (error instanceof ToolUnavailableError) wire['capability'] = error.capability;
  if (error instanceof ToolExecutionError) {
    wire['retryable'] = String(error.retryable);
    wire['recoverable'] = String(error.recoverable);
    wire['correctable'] = String(error.correctable);
    if (error.detail !== undefined) wire['detail'] = error.detail;
  }
  return wire;
}

/**
 * The typed error back from its wire form, or `undefined` when the metadata is not one
 * (another error, a newer version): the caller then fails the call closed, never guesses.
 * `requestedName` is the call's own name, which an `UnknownToolError` is built from.
 */
export function decodeDispatchError(
  wire: Readonly<Record<string, string>> | undefined,
  requestedName: string,
): ToolDispatchError | undefined {
  if (wire?.['tag'] !== WIRE_TAG) return undefined;
  const toolId = wire['toolId'] as ToolId | undefined;
  const reason = wire['reason'];
  const kind = wire['kind'];
  if (kind === 'UnknownToolError') {
    const ids = parseStrings(wire['availableIds']);
    return ids === undefined ? undefined : new UnknownToolError(requestedName, ids as ToolId[]);
  }
  if (kind === 'ToolCancelledError') return new ToolCancelledError(toolId);
  if (toolId === undefined) return undefined;
  switch (kind) {
    case 'ToolPolicyError':
      if (reason === undefined) return undefined;
      return new ToolPolicyError(toolId, reason as ToolPolicyDenyReason, {
        ...(wire['guardReason'] === undefined ? {} : { guardReason: wire['guardReason'] }),
        ...(wire['recoverable'] === 'false' ? { recoverable: false as const } : {}),
      });
    case 'ToolDeniedByUserError':
      if (reason === undefined) return undefined;
      return new ToolDeniedByUserError(toolId, reason as ToolDeniedByUserReason, {
        ...(wire['userReason'] === undefined ? {} : { userReason: wire['userReason'] }),
      });
    case 'ToolArgsInvalidError': {
      const issues = parseIssues(wire['issues']);
      return issues === undefined ? undefined : new ToolArgsInvalidError(toolId, issues);
    }
    case 'ToolUnavailableError': {
      const capability = wire['capability'];
      if (capability === undefined) return undefined;
      return new ToolUnavailableError(toolId, capability, {
        ...(reason === undefined ? {} : { reason: reason as ToolUnavailableReason }),
      });
    }
    case 'ToolExecutionError':
      if (reason === undefined) return undefined;
      return new ToolExecutionError(toolId, reason, {
        retryable: wire['retryable'] === 'true',
        recoverable: wire['recoverable'] === 'true',
        correctable: wire['correctable'] === 'true',
        ...(wire['detail'] === undefined ? {} : { detail: wire['detail'] }),
      });
    case 'EffectJournalError':
      if (reason === undefined) return undefined;
      return new EffectJournalError(toolId, reason as EffectJournalErrorReason);
    default:
      return undefined;
  }
}

/** A retryable failure carries its wire form as its message: the only field Restate keeps. */
export function encodeInMessage(error: ToolDispatchError): string {
  return JSON.stringify(encodeDispatchError(error));
}

/** The wire form back out of a message written by `encodeInMessage`, if it is one. */
export function decodeFromMessage(message: string): Readonly<Record<string, string>> | undefined {
  try {
    const value: unknown = JSON.parse(message);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.every(([, field]) => typeof field === 'string')) return undefined;
    return Object.fromEntries(entries) as Record<string, string>;
  } catch {
    return undefined;
  }
}

function parseStrings(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((id) => typeof id === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseIssues(text: string | undefined): ToolArgsIssue[] | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    const issues = value.filter(
      (issue): issue is ToolArgsIssue =>
        typeof issue === 'object' &&
        issue !== null &&
        typeof (issue as ToolArgsIssue).field === 'string' &&
        typeof (issue as ToolArgsIssue).problem === 'string',
    );
    return issues.length === value.length ? issues : undefined;
  } catch {
    return undefined;
  }
}

/** HTTP-style status for the terminal error, so an ingress caller reads the class at a glance. */
export function statusOf(error: ToolDispatchError): number {
  switch (error.code) {
    case 'unknown_tool':
      return 404;
    case 'tool_args_invalid':
      return 400;
    case 'tool_denied':
      return 403;
    case 'tool_unavailable':
      return 503;
    case 'cancelled':
      return 409;
    default:
      return 500;
  }
}
