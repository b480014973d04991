export type { AbortSignalLike } from './abort-signal-like.js';
export type {
  AnyToolDef,
  JsonSchema,
  PolicyTarget,
  ToolDef,
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
  FileWrite,
  FsCapability,
  FsListRequest,
  FsReadRequest,
  FsWriteRequest,
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
  ConfirmActionHook,
  FsScopeTier,
  ToolActionClass,
  ToolActionPreview,
  ToolApprovalContext,
  ToolApprovalDecision,
  ToolApprovalRequest,
  ToolApprovalRequestedEvent,
  ToolDispatchContext,
  ToolNodeConfig,
  ToolPolicy,
  ToolResultLimits,
} from './dispatch-context.js';
export {
  classifyToolError,
  compareCodeUnits,
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
  RunErrorCode,
  ToolArgsIssue,
  ToolDeniedByUserReason,
  ToolDispatchErrorCode,
  ToolErrorClass,
  ToolExecutionErrorOptions,
  ToolPolicyDenyReason,
} from './errors.js';
export { isUntrusted, markUntrusted, unwrapUntrusted } from './untrusted.js';
export type { Untrusted } from './untrusted.js';
export { withMedia } from './with-media.js';
export type { MediaEnvelope } from './with-media.js';
export { defineTool, toArgsIssues } from './define-tool.js';
export type { DefineToolInput } from './define-tool.js';
