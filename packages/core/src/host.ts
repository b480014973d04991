// `@toolhost/core/host`: the contract a ToolHost implements — each arm's capability and its
// requests and results, the output and media stores, branding output untrusted, and the helpers
// a host's refusals use.
export type { AbortSignalLike } from './abort-signal-like.js';
export type {
  DirectoryEntry,
  DirectoryListing,
  DirectoryMake,
  DurableMediaPart,
  EgressCapability,
  EgressRequest,
  EgressResponse,
  FileEdit,
  FileMove,
  FileRead,
  FileSearchMatch,
  FileSearchResult,
  FileSearchStop,
  FileWrite,
  FsCapability,
  FsEdit,
  FsEditRequest,
  FsListRequest,
  FsMakeDirectoryRequest,
  FsMoveRequest,
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
  SpillPart,
  ToolHostCallOptions,
  ToolOutputStore,
} from './tool-host.js';
export type { ToolHostArm } from './tool-host-arm.js';
export { requireArm } from './dispatch/require-arm.js';
export {
  compareCodeUnits,
  isRefusedBeforeEffect,
  refusedBeforeEffect,
  withToolId,
} from './errors.js';
export { markUntrusted } from './untrusted.js';
