// `@toolhost/core/policy`: the policy building blocks — command globs, argument traps, host
// normalisation, MCP tool ids, a tool's policy class and targets, the action guard and the
// approval vocabulary beyond what the root exports.
export { matchCommandGlob } from './policy/match-command-glob.js';
export { findArgumentTrap } from './policy/argument-traps.js';
export { normalizeHost } from './policy/normalize-host.js';
export { toMcpToolId } from './policy/mcp-tool-id.js';
export type { PolicyTarget, PolicyTargetEdit, ToolEffect, ToolPolicyClass } from './tool-def.js';
export type {
  ActionCommitOutcome,
  ActionGuard,
  ActionGuardDecision,
  ActionGuardRequest,
  FsScopeTier,
  ToolApprovalContext,
  ToolApprovalRefusal,
  ToolApprovalRequestedEvent,
  ToolNodeConfig,
  ToolPreflight,
} from './dispatch-context.js';
export { NOBODY_DECIDED_REASONS } from './errors.js';
