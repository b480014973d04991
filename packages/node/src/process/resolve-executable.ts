import { accessSync, constants, statSync } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import { isInside } from '../fs/requested-path.js';

/**
 * Resolves the executable the host will run, never through a shell. An absolute path is used as
 * given; a bare name is looked up on the host's PATH (absolute entries only: an empty or relative
 * entry would search the child's cwd, which the model may have written to); a relative path with
 * a slash resolves against the jailed cwd and must stay inside the jail root.
 */
export async function resolveExecutable(input: {
  readonly command: string;
  readonly searchPath: string;
  readonly cwd: string;
  readonly root: string;
  readonly toolId?: string;
}): Promise<string> {
  const { command, searchPath, cwd, root, toolId = 'run_command' } = input;
  if (command.includes('\0')) throw new ToolPolicyError(toolId, 'invalid_path');
  if (command === '' || command === '.' || command === '..') {
    throw new ToolPolicyError(toolId, 'command_not_found');
  }
  if (path.isAbsolute(command)) {
    if (await isExecutableFile(command)) return command;
    throw new ToolPolicyError(toolId, 'command_not_found');
  }
  if (command.includes('/')) {
    const candidate = path.resolve(cwd, command);
    const real = await realpath(candidate).catch(() => undefined);
    if (real === undefined || !(await isExecutableFile(real))) {
      throw new ToolPolicyError(toolId, 'command_not_found');
    }
    // Not the fs arm's recoverable scope escape: a spawn is governed, so this ends the turn.
    if (!isInside(root, real)) {
      throw new ToolPolicyError(toolId, 'scope_escape', { recoverable: false });
    }
    return real;
  }
  // Like a shell's hash table: a bare name found once is re-verified, not searched again.
  const cacheKey = `${searchPath}\0${command}`;
  const cached = lookups.get(cacheKey);
  // Synchronous on purpose: two local stat calls cost less than a thread-pool round trip.
  if (cached !== undefined && isExecutableFileSync(cached)) return cached;
  for (const directory of searchPath.split(path.delimiter)) {
    if (!path.isAbsolute(directory)) continue;
    const candidate = path.join(directory, command);
    if (await isExecutableFile(candidate)) {
      if (lookups.size >= 256) lookups.clear();
      lookups.set(cacheKey, candidate);
      return candidate;
    }
  }
  throw new ToolPolicyError(toolId, 'command_not_found');
}

/** True for an existing regular file this process may execute. */
export async function isExecutableFile(file: string): Promise<boolean> {
  try {
    // access first: a missing file costs one call; stat only for the one that exists.
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function isExecutableFileSync(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

const lookups = new Map<string, string>();
