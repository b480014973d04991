import type { HostPreflightRequest } from '@toolhost/core';
import type { Jail } from './fs/jail.js';

/**
 * `ToolHost.preflight` of the Node host: a governed write's path (and a move's destination) is
 * judged as the jail will judge it, so a write to `.git/hooks/pre-commit` or out of the tier is
 * refused before the guard or a person is asked, never after they approved it.
 */
export function createHostPreflight(jail: Jail): (request: HostPreflightRequest) => void {
  return ({ toolId, action, target }) => {
    if (action !== 'fs_write') return;
    if (target.path !== undefined) jail.judgeWrite(toolId, target.path);
    if (target.destination !== undefined) jail.judgeWrite(toolId, target.destination);
  };
}
