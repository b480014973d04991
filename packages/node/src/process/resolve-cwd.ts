import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import { isInside } from '../fs/requested-path.js';

/**
 * Resolves a config-only `cwd` inside the jail root exactly like an fs path: resolve against the
 * root, realpath (symlinks followed), then require `real === root` or `real` under `root + sep`
 * (never a bare prefix: `/w/app-evil` is not inside `/w/app`). `root` must already be a realpath.
 * No failure here is recoverable: a spawn is governed, and only the fs arm's pure scope escape
 * and `media_scope_denied` are fed back.
 */
export async function resolveCwd(
  root: string,
  requested: string | undefined,
  toolId = 'run_command',
): Promise<string> {
  if (requested === undefined || requested === '') return root;
  if (requested.includes('\0')) throw new ToolPolicyError(toolId, 'invalid_path');
  const candidate = path.resolve(root, requested);
  let real: string;
  try {
    real = await realpath(candidate);
  } catch (error) {
    // A lexical escape is judged before existence, so probing outside the root learns nothing.
    if (!isInside(root, candidate)) throw cwdEscape(toolId);
    throw new ToolExecutionError(toolId, 'not_found', { cause: error });
  }
  if (!isInside(root, real)) throw cwdEscape(toolId);
  if (!(await stat(real)).isDirectory()) throw new ToolExecutionError(toolId, 'not_a_directory');
  return real;
}

function cwdEscape(toolId: string): ToolPolicyError {
  return new ToolPolicyError(toolId, 'scope_escape', { recoverable: false });
}
