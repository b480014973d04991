// The root entry: what an application uses — the registry, the built-in tool sets, defining a
// tool, the dispatch context and its outcome, the error classes and their discriminants,
// unwrapping untrusted output, lowering to a provider and the reference loop. Everything else is
// a subpath (`@toolhost/core/lowering`, `/journal`, `/redact`, `/loop`, `/policy`, `/bound`,
// `/tools`, `/host`, `/dispatch`); test/packaging/export-lists.test.ts keeps every list.
export { createToolRegistry } from './registry.js';
export type { ToolRegistry, ToolRegistryOptions } from './registry.js';
export { BUILTIN_TOOLS } from './tools/builtin-tools.js';
export { WORKSPACE_TOOLS } from './tools/workspace-tools.js';
export { defineTool } from './define-tool.js';
export type { DefineToolInput } from './define-tool.js';
export type { AnyToolDef, ToolDef, ToolId } from './tool-def.js';
export type { ToolHost } from './tool-host.js';
export type {
  ConfirmActionHook,
  ToolActionClass,
  ToolActionPreview,
  ToolApprovalDecision,
  ToolApprovalRequest,
  ToolDispatchContext,
  ToolPolicy,
  ToolResultLimits,
} from './dispatch-context.js';
export type {
  ToolCall,
  ToolDispatchEvents,
  ToolDispatchOutcome,
  ToolResultPart as ToolDispatchResultPart,
} from './dispatch/tool-call.js';
export {
  classifyToolError,
  EffectJournalError,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolDispatchError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  UnknownToolError,
} from './errors.js';
export type {
  EffectJournalErrorReason,
  RunErrorCode,
  ToolArgsIssue,
  ToolDeniedByUserReason,
  ToolDispatchErrorCode,
  ToolErrorClass,
  ToolExecutionErrorOptions,
  ToolPolicyDenyReason,
  ToolUnavailableReason,
} from './errors.js';
export { AdapterOptionsError } from './loop/adapter-options-error.js';
export type { AdapterOptionsErrorReason } from './loop/adapter-options-error.js';
export { isUntrusted, unwrapUntrusted } from './untrusted.js';
export type { Untrusted } from './untrusted.js';
export { withMedia } from './with-media.js';
export type { MediaEnvelope } from './with-media.js';
export { toProviderTools } from './lowering/to-provider-tools.js';
export type { ProviderTools, ToolProvider } from './lowering/to-provider-tools.js';
export { UnknownProviderError } from './lowering/unknown-provider-error.js';
export { runToolCalls } from './loop/run-tool-calls.js';
export type { RunToolCallsOptions, ToolCallRound } from './loop/run-tool-calls.js';
export { createCorrectionBudget } from './loop/correction-budget.js';
export type { CorrectionBudget } from './loop/correction-budget.js';
export type { ToolhostAdapterOptions } from './loop/resolve-adapter-options.js';
