export { main } from './main.js';
export type { CliIo } from './commands/cli-io.js';
export { EXIT_CODES, exitCodeFor } from './exit-codes.js';
export { CliExitError, CliUsageError } from './cli-error.js';
export { APPROVAL_MODES, FS_SCOPES, toolhostConfigSchema } from './config/config-schema.js';
export type {
  ApprovalMode,
  CredentialSource,
  McpServerConfig,
  ToolhostConfig,
} from './config/config-schema.js';
export { CONFIG_FILE_NAME, loadConfig, parseConfig } from './config/load-config.js';
export type { LoadedConfig } from './config/load-config.js';
export { DEFAULT_GRANT, resolveSettings } from './config/resolve-settings.js';
export type { EffectiveSettings, SettingsFlags } from './config/resolve-settings.js';
export { renderConfigJsonSchema } from './config/config-json-schema.js';
export { createConfirmHook } from './approval/create-confirm-hook.js';
export type { ConfirmHookOptions } from './approval/create-confirm-hook.js';
export { ApprovalCache } from './approval/approval-cache.js';
export type {
  ApprovalAnswer,
  ApprovalPrompt,
  ApprovalPrompter,
} from './approval/approval-prompter.js';
export { createTtyPrompter } from './approval/tty-prompter.js';
export { isProtectedPath } from './approval/is-protected-path.js';
export { openAuditLog } from './audit/audit-log.js';
export { withAudit } from './audit/with-audit.js';
export type { AuditEventType, AuditLog, AuditLogOptions } from './audit/audit-log.js';
export { openSession } from './session/open-session.js';
export type { Session, SessionOptions } from './session/open-session.js';
export { createCredentialResolver } from './session/resolve-credential.js';
export { withProcessProgress } from './progress/with-process-progress.js';
