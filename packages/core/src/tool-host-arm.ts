import type { AnyToolDef } from './tool-def.js';
import type { ToolHost } from './tool-host.js';

/** A host member a tool's calls go through: an arm, or one optional method of the fs arm. */
export type ToolHostArm =
  | 'fs'
  | 'fs.writeFile'
  | 'fs.editFile'
  | 'fs.searchFiles'
  | 'fs.moveFile'
  | 'fs.makeDirectory'
  | 'process'
  | 'egress'
  | 'mcp'
  | 'os'
  | 'media';

// The fs arm's optional methods, by the built-in tool that calls each (a read-only host has none).
const FS_METHODS: Readonly<Record<string, ToolHostArm>> = {
  write_file: 'fs.writeFile',
  edit_file: 'fs.editFile',
  search_files: 'fs.searchFiles',
  move_file: 'fs.moveFile',
  create_directory: 'fs.makeDirectory',
};

/**
 * The host member a built-in or MCP tool needs, from its policy class; `undefined` for a tool
 * that uses none, and for a plugin tool, whose policy class says how it is judged, not which
 * arm (if any) its own `dispatch` reaches.
 */
export function hostArmOf(tool: AnyToolDef): ToolHostArm | undefined {
  if (tool.source === 'plugin') return undefined;
  const { policy } = tool;
  if (policy.fsScoped) return FS_METHODS[tool.id] ?? 'fs';
  if (policy.spawnsProcess) return 'process';
  if (policy.egress === 'mcp') return 'mcp';
  if (policy.egress !== undefined) return 'egress';
  if (policy.os === true) return 'os';
  if (tool.id === 'read_media') return 'media';
  return undefined;
}

/** Whether `host` has `arm` (for an fs method: the fs arm and that method). */
export function hasHostArm(host: ToolHost, arm: ToolHostArm): boolean {
  switch (arm) {
    case 'fs':
      return host.fs !== undefined;
    case 'fs.writeFile':
      return host.fs?.writeFile !== undefined;
    case 'fs.editFile':
      return host.fs?.editFile !== undefined;
    case 'fs.searchFiles':
      return host.fs?.searchFiles !== undefined;
    case 'fs.moveFile':
      return host.fs?.moveFile !== undefined;
    case 'fs.makeDirectory':
      return host.fs?.makeDirectory !== undefined;
    case 'process':
      return host.process !== undefined;
    case 'egress':
      return host.egress !== undefined;
    case 'mcp':
      return host.mcp !== undefined;
    case 'os':
      return host.os !== undefined;
    case 'media':
      return host.media !== undefined;
  }
}
