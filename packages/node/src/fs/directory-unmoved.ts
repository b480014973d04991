import { ToolPolicyError } from '@toolhost/core';
import type { ToolId } from '@toolhost/core';
import { descriptorPath } from './descriptor-path.js';
import type { DirectoryRef } from './descriptor-path.js';

/**
 * Refuses when an open, verified directory is no longer where it was verified: renamed away
 * (and perhaps replaced by a symlink) since the walk. Checked just before a rename or mkdir in
 * it, so the change lands where the jail judged it, or not at all.
 */
export function assertDirectoryUnmoved(toolId: ToolId, directory: DirectoryRef): void {
  if (descriptorPath(directory.fd, directory.path) !== directory.path)
    throw new ToolPolicyError(toolId, 'symlink_refused');
}
