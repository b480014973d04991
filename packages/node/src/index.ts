export { createEgressArm } from './egress/create-egress-arm.js';
export type { EgressArm } from './egress/create-egress-arm.js';
export { createPinnedDispatcher } from './egress/create-pinned-dispatcher.js';
export type {
  DialTarget,
  DialTcp,
  PinnedDispatcherOptions,
} from './egress/create-pinned-dispatcher.js';
export {
  assertHostAllowed,
  checkEgressUrl,
  normalizeAllowlist,
} from './egress/check-egress-url.js';
export { isGlobalUnicast } from './egress/is-global-unicast.js';
export { isBlockedHostname } from './egress/is-blocked-hostname.js';
export { resolveDestination } from './egress/resolve-destination.js';
export type {
  EgressAddress,
  EgressLookup,
  ResolvedDestination,
  ResolveDestinationOptions,
} from './egress/resolve-destination.js';
export type { EgressMediaSink, EgressOptions } from './egress/resolve-egress-options.js';
export type { CredentialResolver } from './egress/resolve-credential.js';
export { createNodeToolHost } from './create-node-tool-host.js';
export type { NodeHostParts, NodeToolHostHandle } from './create-node-tool-host.js';
export { resolveHostOptions } from './host-options.js';
export type { NodeToolHostOptions, ResolvedHostOptions } from './host-options.js';
export { createMediaStore } from './media-store/create-media-store.js';
export type { MediaPutOptions, NodeMediaStore } from './media-store/create-media-store.js';
export { createOutputStore, SPILL_MAX_AGE_MS } from './output-store/create-output-store.js';
export type { NodeOutputStore } from './output-store/create-output-store.js';
export {
  DEFAULT_SPILL_BYTES_PER_CALL,
  DEFAULT_SPILL_BYTES_PER_RUN,
} from './output-store/spill-quota.js';
export type { SpillQuotaOptions } from './output-store/spill-quota.js';
export { isOnReadFloor, isOnWriteFloor, foldSegment, SHELL_STARTUP_FILES } from './fs/floor.js';
export type { FloorContext } from './fs/floor.js';
export type { Jail, OpenedEntry, WriteTarget } from './fs/jail.js';
export {
  createMcpArmLazily as createMcpArm,
  McpSdkMissingError,
} from './mcp/create-mcp-arm-lazily.js';
export type { McpArm, McpArmReport, McpSkipReason } from './mcp/create-mcp-arm.js';
export type {
  CredentialValue,
  DeclaredValue,
  McpArmOptions,
  McpHttpServerDeclaration,
  McpServerDeclaration,
  McpStdioServerDeclaration,
} from './mcp/mcp-arm-options.js';
export { createProcessArm } from './process/create-process-arm.js';
export type {
  ContainmentDescription,
  ProcessArm,
  ProcessArmOptions,
} from './process/create-process-arm.js';
export type { NodeProcessOptions } from './process/create-host-process-arm.js';
export type { ProcessBudgets } from './process/spawn-process.js';
export type { OpenProcessSpill, ProcessSpillTarget } from './process/capture-output.js';
export type {
  ProcessOutputChunk,
  ProcessOutputObserver,
} from './process/process-output-observer.js';
export { createSpillOpener } from './process/create-spill-opener.js';
export { buildChildEnv, isRefusedEnvName } from './process/build-child-env.js';
export { detectContainment } from './process/detect-containment.js';
export {
  describeNativeHelpers,
  NATIVE_HELPERS_FIX,
  type NativeHelpers,
  type NativeHelperState,
} from './describe-native-helpers.js';
export type {
  ContainmentInfo,
  ContainmentMode,
  ContainmentPreference,
  DetectContainmentOptions,
  PidNamespaceMechanism,
  PidNamespaceMechanismPreference,
} from './process/detect-containment.js';
export { defaultSandboxMode } from './process/sandbox/create-sandbox.js';
export type { SandboxDescription } from './process/sandbox/create-sandbox.js';
export type {
  SandboxConfigQuarantine,
  SandboxQuarantineEvent,
} from './process/sandbox/quarantine-config-file.js';
export type { SandboxGitQuarantine } from './process/sandbox/quarantine-git-indirections.js';
export { probeSandbox } from './process/sandbox/detect-sandbox.js';
export type { ProbeSandboxOptions, SandboxProbe } from './process/sandbox/detect-sandbox.js';
export type {
  SandboxAllowance,
  SandboxMode,
  SandboxNetworkOptions,
} from './process/sandbox/sandbox-options.js';
export { createOsArm } from './os/create-os-arm.js';
export type { OsArmOptions } from './os/create-os-arm.js';
export { createSqliteEffectJournal } from './journal/create-sqlite-effect-journal.js';
export type {
  SqliteEffectJournal,
  SqliteEffectJournalOptions,
  UnresolvedClaim,
} from './journal/sqlite-effect-journal-types.js';
export {
  SqliteDriverMissingError,
  SqliteJournalError,
  type SqliteJournalErrorCode,
} from './journal/journal-errors.js';
export { createPostgresEffectJournal } from './journal/postgres/create-postgres-effect-journal.js';
export type {
  PostgresEffectJournal,
  PostgresEffectJournalOptions,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryable,
  PostgresQueryResult,
} from './journal/postgres/postgres-effect-journal-types.js';
export {
  PostgresDriverMissingError,
  PostgresJournalError,
  type PostgresJournalErrorCode,
} from './journal/postgres/postgres-journal-errors.js';
