// `@toolhost/node/host`: what assembling a host needs, without the package's heavier exports (the
// arms' own factories, undici, the sandbox, the journals), so a short-lived process that reads a
// file loads only that. Each arm's code loads inside `createNodeToolHost` once its options are given.
export { createNodeToolHost } from './create-node-tool-host.js';
export type { NodeHostParts, NodeToolHostHandle } from './create-node-tool-host.js';
export type { NodeToolHostOptions } from './host-options.js';
export type { SpillQuotaOptions } from './output-store/spill-quota.js';
export { isOnReadFloor, isOnWriteFloor, SHELL_STARTUP_FILES } from './fs/floor.js';
export type { FloorContext } from './fs/floor.js';
export { defaultSandboxMode } from './process/sandbox/default-sandbox-mode.js';
export type { SandboxAllowance, SandboxMode } from './process/sandbox/sandbox-options.js';
export type { ProcessBudgets } from './process/spawn-process.js';
export { SqliteDriverMissingError, SqliteJournalError } from './journal/journal-errors.js';
export type { SqliteEffectJournal } from './journal/sqlite-effect-journal-types.js';
export type { McpArmReport } from './mcp/create-mcp-arm.js';
export { resolveHostOptions } from './host-options.js';
export type { ResolvedHostOptions } from './host-options.js';
