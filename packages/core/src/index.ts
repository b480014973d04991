export type { AbortSignalLike } from './abort-signal-like.js';
export type {
  AnyToolDef,
  JsonSchema,
  PolicyTarget,
  ToolDef,
  ToolEffect,
  ToolId,
  ToolPolicyClass,
} from './tool-def.js';
export type {
  DirectoryEntry,
  DirectoryListing,
  DurableMediaPart,
  EgressCapability,
  EgressRequest,
  EgressResponse,
  FileRead,
  FileSearchMatch,
  FileSearchResult,
  FileSearchStop,
  FileWrite,
  FsCapability,
  FsListRequest,
  FsReadRequest,
  FsSearchRequest,
  FsWriteRequest,
  HostPreflightRequest,
  McpCallInput,
  McpCapability,
  MediaInfo,
  MediaStore,
  OsCapability,
  ProcessCapability,
  ProcessResult,
  SpawnOpts,
  SpilledResult,
  ToolHost,
  ToolHostCallOptions,
  ToolOutputStore,
} from './tool-host.js';
export type {
  ActionCommitOutcome,
  ActionGuard,
  ActionGuardDecision,
  ActionGuardRequest,
  ConfirmActionHook,
  FsScopeTier,
  ToolActionClass,
  ToolActionPreview,
  ToolApprovalContext,
  ToolApprovalDecision,
  ToolApprovalRefusal,
  ToolApprovalRequest,
  ToolApprovalRequestedEvent,
  ToolDispatchContext,
  ToolNodeConfig,
  ToolPolicy,
  ToolPreflight,
  ToolResultLimits,
} from './dispatch-context.js';
export {
  classifyToolError,
  compareCodeUnits,
  isRefusedBeforeEffect,
  NOBODY_DECIDED_REASONS,
  refusedBeforeEffect,
  ToolArgsInvalidError,
  ToolCancelledError,
  ToolDeniedByUserError,
  ToolDispatchError,
  ToolExecutionError,
  ToolPolicyError,
  ToolUnavailableError,
  UnknownToolError,
  withToolId,
} from './errors.js';
export type {
  RunErrorCode,
  ToolArgsIssue,
  ToolDeniedByUserReason,
  ToolDispatchErrorCode,
  ToolErrorClass,
  ToolExecutionErrorOptions,
  ToolPolicyDenyReason,
  ToolUnavailableReason,
} from './errors.js';
export { isUntrusted, markUntrusted, unwrapUntrusted } from './untrusted.js';
export type { Untrusted } from './untrusted.js';
export { withMedia } from './with-media.js';
export type { MediaEnvelope } from './with-media.js';
export { defineTool, toArgsIssues } from './define-tool.js';
export type { DefineToolInput } from './define-tool.js';
export { INHERITS_NOTHING } from './inherits-nothing.js';
export { createToolRegistry } from './registry.js';
export type { ToolRegistry, ToolRegistryOptions } from './registry.js';
export type {
  ToolCall,
  ToolDispatchEvents,
  ToolDispatchOutcome,
  ToolResultPart as ToolDispatchResultPart,
} from './dispatch/tool-call.js';
export { requireArm } from './dispatch/require-arm.js';
export { boundForModel } from './bound/bound-for-model.js';
export type { BoundedResult, BoundForModelOptions } from './bound/bound-for-model.js';
export { attachUtf8Source } from './bound/utf8-source.js';
export type { Utf8Source } from './bound/utf8-source.js';
export type { SpillPart } from './tool-host.js';
export { DEFAULT_TOOL_RESULT_LIMITS } from './bound/default-tool-result-limits.js';
export { toModelText } from './bound/to-model-text.js';
export { backstopInlineMedia, INLINE_BASE64_MIN_RUN } from './bound/backstop-inline-media.js';
export {
  projectFailedResult,
  UNKNOWN_TOOL,
  UNKNOWN_TOOL_MESSAGE,
} from './dispatch/project-events.js';
export { secretArgTopKeys } from './dispatch/secret-arg-top-keys.js';
export { MAX_PREVIEW_CONTENT_BYTES, previewContent } from './dispatch/content-preview.js';
export type { ContentPreview } from './dispatch/content-preview.js';
export { redactSecretShapedText } from './redact/redact-secret-shaped-text.js';
export { redactText } from './redact/redact-text.js';
export {
  redactKey,
  redactLeaf,
  redactStructured,
  type RedactStructuredOptions,
} from './redact/redact-structured.js';
export { matchCommandGlob } from './policy/match-command-glob.js';
export { findArgumentTrap } from './policy/argument-traps.js';
export { normalizeHost } from './policy/normalize-host.js';
export { toMcpToolId } from './policy/mcp-tool-id.js';
export { runToolCalls } from './loop/run-tool-calls.js';
export type { RunToolCallsOptions, ToolCallRound } from './loop/run-tool-calls.js';
export { applyFailureLadder, feedbackText } from './loop/apply-failure-ladder.js';
export type { FailureLadderOptions, FailureLadderStep } from './loop/apply-failure-ladder.js';
export { createCorrectionBudget, DEFAULT_MAX_CORRECTIONS } from './loop/correction-budget.js';
export type { CorrectionBudget } from './loop/correction-budget.js';
export { createTurnLimit, DEFAULT_MAX_TOOL_TURNS } from './loop/turn-limit.js';
export type { TurnLimit } from './loop/turn-limit.js';
export { defaultRandomNonce } from './loop/random-nonce.js';
export type { RandomNonce } from './loop/random-nonce.js';
export {
  fenceReportedMedia,
  reportedContentClosing,
  reportedContentOpening,
} from './loop/fence-reported-media.js';
export type { CallMediaAttachments } from './loop/fence-reported-media.js';
export { approvalActionClass } from './loop/approval-action-class.js';
export { resolveAdapterOptions } from './loop/resolve-adapter-options.js';
export { AdapterOptionsError } from './loop/adapter-options-error.js';
export { HostRetentionRefusedError } from './dispatch/guard-retention.js';
export type { AdapterOptionsErrorReason } from './loop/adapter-options-error.js';
export type { ToolHostArm } from './tool-host-arm.js';
export type {
  ResolvedAdapterOptions,
  ToolhostAdapterOptions,
} from './loop/resolve-adapter-options.js';
export type { LoopDispatchOutcome, LoopRegistry, LoopToolCall } from './loop/loop-registry.js';
export type {
  AssistantMessage,
  InstructionMessage,
  LoopMessage,
  ReportedMediaPart,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './loop/loop-messages.js';
export { BUILTIN_TOOLS } from './tools/builtin-tools.js';
export { WORKSPACE_TOOLS } from './tools/workspace-tools.js';
export { editFileTool } from './tools/edit-file.js';
export { moveFileTool } from './tools/move-file.js';
export { createDirectoryTool } from './tools/create-directory.js';
export type { FileEdit, FsEdit, FsEditRequest } from './tool-host.js';
export type {
  DirectoryMake,
  FileMove,
  FsMakeDirectoryRequest,
  FsMoveRequest,
} from './tool-host.js';
export type { PolicyTargetEdit } from './tool-def.js';
export { gitCommitTool } from './tools/git-commit.js';
export { gitStatusTool } from './tools/git-status.js';
export { httpRequestTool } from './tools/http-request.js';
export { invokeAgentTool } from './tools/invoke-agent.js';
export { listDirectoryTool } from './tools/list-directory.js';
export { mcpCallTool } from './tools/mcp-call.js';
export { notifyTool } from './tools/notify.js';
export { readClipboardTool } from './tools/read-clipboard.js';
export { readFileTool } from './tools/read-file.js';
export { readMediaTool } from './tools/read-media.js';
export { runCommandTool } from './tools/run-command.js';
export { searchFilesTool } from './tools/search-files.js';
export { webSearchTool } from './tools/web-search.js';
export { writeFileTool } from './tools/write-file.js';
export type { ProcessOutcome } from './tools/process-outcome.js';
export { normalizeSearchResponse } from './tools/web-search-normalize.js';
export type { SearchProvider, SearchResult } from './tools/web-search-normalize.js';
export { toProviderTools } from './lowering/to-provider-tools.js';
export type {
  AiSdkToolSpec,
  AnthropicTool,
  GeminiFunctionDeclaration,
  GeminiTool,
  LowerableTool,
  OpenAiChatTool,
  OpenAiResponsesTool,
  ProviderTools,
  ToolProvider,
} from './lowering/to-provider-tools.js';
export { toOpenAiStrictSchema } from './lowering/to-openai-strict-schema.js';
export { toGeminiSchema } from './lowering/to-gemini-schema.js';
export { fromOpenAiStrictArgs } from './lowering/from-openai-strict-args.js';
export { TOOL_PROVIDERS } from './lowering/tool-providers.js';
export { UnknownProviderError } from './lowering/unknown-provider-error.js';
export type { SchemaNode } from './lowering/schema-node.js';
export type {
  EffectJournal,
  EffectKey,
  JournalState,
  JsonValue,
  SettledEffect,
} from './journal/effect-journal.js';
export {
  isOperatorResolvedRecord,
  operatorResolvedRecord,
} from './journal/operator-resolved-record.js';
export { OPERATOR_RESOLVED_RESULT } from './journal/operator-resolved-record.js';
export { createMemoryEffectJournal } from './journal/memory-effect-journal.js';
export { effectIdempotencyKey } from './journal/effect-identity.js';
export { isJournaledTool } from './journal/is-journaled-tool.js';
export { DEFAULT_MAX_RECORD_BYTES } from './journal/dispatch-record.js';
export { EffectJournalError } from './errors.js';
export type { EffectJournalErrorReason } from './errors.js';
export type { ToolJournalContext } from './dispatch-context.js';
export type { ToolJournalOutcome } from './dispatch/tool-call.js';
