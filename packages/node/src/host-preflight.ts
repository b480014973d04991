import type { ToolId } from '@toolhost/core';
import type { HostPreflightRequest } from '@toolhost/core/host';
import type { Jail } from './fs/jail.js';

/** What the Node host's arms can judge of a target before anyone is asked. */
export interface HostPreflightParts {
  readonly jail: Jail;
  /** The egress arm's judgement of a request URL (`EgressArm.judgeUrl`); absent without one. */
  readonly judgeUrl?: (toolId: ToolId, url: string) => void;
}

/**
 * `ToolHost.preflight` of the Node host: a governed write's path (and a move's destination) is
 * judged as the jail will judge it, and an HTTP request's URL as the egress arm's SSRF floor
 * will (a literal private address, a blocked name), so a call the host refuses — a write to
 * `.git/hooks/pre-commit`, out of the tier, a request to `169.254.169.254` — is refused before
 * the guard or a person is asked, never after they approved it.
 */
export function createHostPreflight(
  parts: HostPreflightParts,
): (request: HostPreflightRequest) => void {
  const { jail, judgeUrl } = parts;
  return ({ toolId, action, target }) => {
    if (action === 'fs_write') {
      if (target.path !== undefined) jail.judgeWrite(toolId, target.path);
      if (target.destination !== undefined) jail.judgeWrite(toolId, target.destination);
      return;
    }
    if (action === 'egress' && target.url !== undefined) judgeUrl?.(toolId, target.url);
  };
}
