// The root entry: what an application uses — assembling the Node host, its options (each arm's,
// MCP servers', the sandbox's) and what it reports. Everything else is a subpath
// (`@toolhost/node/host`, `/fs`, `/egress`, `/process`, `/mcp`, `/os`, `/stores`, `/journal`);
// test/packaging/export-lists.test.ts keeps every list.
export { createNodeToolHost } from './create-node-tool-host.js';
export type { NodeHostParts, NodeToolHostHandle } from './create-node-tool-host.js';
export type { NodeToolHostOptions } from './host-options.js';
export type { SpillQuotaOptions } from './output-store/spill-quota.js';
export type { EgressMediaSink, EgressOptions } from './egress/resolve-egress-options.js';
export type { CredentialResolver } from './egress/resolve-credential.js';
export { McpSdkMissingError } from './mcp/create-mcp-arm-lazily.js';
export type { McpArmReport, McpSkipReason } from './mcp/create-mcp-arm.js';
export type {
  CredentialValue,
  DeclaredValue,
  McpArmOptions,
  McpHttpServerDeclaration,
  McpServerDeclaration,
  McpStdioServerDeclaration,
} from './mcp/mcp-arm-options.js';
export type { NodeProcessOptions } from './process/create-host-process-arm.js';
export type { ProcessBudgets } from './process/spawn-process.js';
export type {
  ProcessOutputChunk,
  ProcessOutputObserver,
} from './process/process-output-observer.js';
export type {
  ContainmentPreference,
  PidNamespaceMechanismPreference,
} from './process/detect-containment.js';
export { defaultSandboxMode } from './process/sandbox/create-sandbox.js';
export type {
  SandboxAllowance,
  SandboxMode,
  SandboxNetworkOptions,
} from './process/sandbox/sandbox-options.js';
export type {
  SandboxConfigQuarantine,
  SandboxQuarantineEvent,
} from './process/sandbox/quarantine-config-file.js';
export type { SandboxGitQuarantine } from './process/sandbox/quarantine-git-indirections.js';
export type { OsArmOptions } from './os/create-os-arm.js';
export {
  describeNativeHelpers,
  NATIVE_HELPERS_FIX,
  type NativeHelpers,
  type NativeHelperState,
} from './describe-native-helpers.js';
