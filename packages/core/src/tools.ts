// `@toolhost/core/tools`: each built-in tool's definition (`BUILTIN_TOOLS` and `WORKSPACE_TOOLS`,
// the sets, are at the root) and the shapes some of them return.
export { createDirectoryTool } from './tools/create-directory.js';
export { editFileTool } from './tools/edit-file.js';
export { gitCommitTool } from './tools/git-commit.js';
export { gitStatusTool } from './tools/git-status.js';
export { httpRequestTool } from './tools/http-request.js';
export { invokeAgentTool } from './tools/invoke-agent.js';
export { listDirectoryTool } from './tools/list-directory.js';
export { mcpCallTool } from './tools/mcp-call.js';
export { moveFileTool } from './tools/move-file.js';
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
