import type { AnyToolDef } from '../tool-def.js';
import { gitCommitTool } from './git-commit.js';
import { gitStatusTool } from './git-status.js';
import { httpRequestTool } from './http-request.js';
import { invokeAgentTool } from './invoke-agent.js';
import { listDirectoryTool } from './list-directory.js';
import { mcpCallTool } from './mcp-call.js';
import { notifyTool } from './notify.js';
import { readClipboardTool } from './read-clipboard.js';
import { readFileTool } from './read-file.js';
import { readMediaTool } from './read-media.js';
import { runCommandTool } from './run-command.js';
import { webSearchTool } from './web-search.js';
import { writeFileTool } from './write-file.js';

/** The 13 built-in tools, sorted by id (UTF-16 code-unit order). */
export const BUILTIN_TOOLS: readonly AnyToolDef[] = Object.freeze([
  gitCommitTool,
  gitStatusTool,
  httpRequestTool,
  invokeAgentTool,
  listDirectoryTool,
  mcpCallTool,
  notifyTool,
  readClipboardTool,
  readFileTool,
  readMediaTool,
  runCommandTool,
  webSearchTool,
  writeFileTool,
]);
