import type { AnyToolDef } from '../tool-def.js';
import { createDirectoryTool } from './create-directory.js';
import { editFileTool } from './edit-file.js';
import { moveFileTool } from './move-file.js';
import { searchFilesTool } from './search-files.js';

/**
 * The workspace tools beyond the spec's 13: change lines, search, move, create. Granted by name
 * like any tool, under the same guardrails; sorted by id (UTF-16 code-unit order).
 */
export const WORKSPACE_TOOLS: readonly AnyToolDef[] = Object.freeze([
  createDirectoryTool,
  editFileTool,
  moveFileTool,
  searchFilesTool,
]);
