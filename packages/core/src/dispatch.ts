// `@toolhost/core/dispatch`: pieces of the dispatch pipeline that other surfaces (the CLI, the
// MCP server, tracing) reuse — failed-result projection, secret-argument keys, content previews
// argument-issue conversion and the host-retention refusal.
export {
  projectFailedResult,
  UNKNOWN_TOOL,
  UNKNOWN_TOOL_MESSAGE,
} from './dispatch/project-events.js';
export { secretArgTopKeys } from './dispatch/secret-arg-top-keys.js';
export { MAX_PREVIEW_CONTENT_BYTES, previewContent } from './dispatch/content-preview.js';
export type { ContentPreview } from './dispatch/content-preview.js';
export { toArgsIssues } from './define-tool.js';
export { HostRetentionRefusedError } from './dispatch/guard-retention.js';
export { INHERITS_NOTHING } from './inherits-nothing.js';
