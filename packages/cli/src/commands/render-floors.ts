import type { ContainmentDescription, SandboxDescription } from '@toolhost/node/process';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import type { McpServerReach } from '../session/describe-mcp-reach.js';

/** What to do when the sandbox is required and cannot start; every command fails closed. */
export const SANDBOX_FIX =
  'install bubblewrap (e.g. apt-get install bubblewrap), or pass --sandbox off';

/** The doctor's block: mode and bwrap, then each floor of a spawned command on its own line. */
export function renderSandboxLines(
  containment: ContainmentDescription | undefined,
  settings: EffectiveSettings,
): string[] {
  if (containment === undefined) return ['sandbox:    not reported by the process arm'];
  const { sandbox } = containment;
  return [
    `sandbox:    ${renderSandboxMode(sandbox, settings)}`,
    `  filesystem:   ${sandbox.filesystem}`,
    `  network:      ${renderNetwork(sandbox)}`,
    `  seccomp:      ${renderSeccomp(sandbox)}`,
    `  capabilities: ${sandbox.capabilities}`,
  ];
}

/** `required (bubblewrap 0.8.0)`, why it cannot start and the fix, or who turned it off. */
export function renderSandboxMode(
  sandbox: SandboxDescription,
  settings: Pick<EffectiveSettings, 'sandboxSource'>,
): string {
  if (sandbox.mode === 'off') return `off ${offReason(settings)}: ${ON_THE_HOST}`;
  if (!sandbox.available) {
    return `required but unavailable (${sandbox.why ?? 'unknown'}): every command fails closed; ${SANDBOX_FIX}`;
  }
  return `required (${sandbox.version ?? 'bubblewrap'})`;
}

/** serve's startup line when the sandbox is off; nothing when it is required. */
export function renderSandboxOffNotice(
  settings: Pick<EffectiveSettings, 'sandbox' | 'sandboxSource'>,
): string | undefined {
  if (settings.sandbox !== 'off') return undefined;
  return `process sandbox off ${offReason(settings)}: ${ON_THE_HOST}`;
}

/** `none`, the allowed hosts, or the host's own network when the sandbox is off. */
export function renderNetwork(sandbox: Pick<SandboxDescription, 'mode' | 'network'>): string {
  if (sandbox.mode === 'off') return "unrestricted (the host's network)";
  if (sandbox.network === 'none') return 'none (loopback inside the sandbox only)';
  return `https to ${sandbox.network.allowedDomains.join(', ')} only (through the host's proxy)`;
}

/** `on (37 syscalls denied)`, or why not. */
export function renderSeccomp(sandbox: SandboxDescription): string {
  switch (sandbox.seccomp) {
    case 'on':
      return `on (${sandbox.deniedSyscalls.length} syscalls denied)`;
    case 'unavailable_for_arch':
      return `unavailable for ${process.arch} (no filter is generated for this CPU)`;
    case 'off':
      return 'off';
  }
}

/** `fx: sandbox required; sees the workspace view + read-only /a; network none`. */
export function renderMcpReach(reach: McpServerReach): string {
  if (reach.sandbox === 'off') {
    return `${reach.server}: sandbox off, on the host: your filesystem and network`;
  }
  const extra = [
    ...(reach.readOnlyPaths.length === 0 ? [] : [`read-only ${reach.readOnlyPaths.join(', ')}`]),
    ...(reach.readWritePaths.length === 0 ? [] : [`read-write ${reach.readWritePaths.join(', ')}`]),
  ];
  const network =
    reach.network === 'none' || reach.network === 'host'
      ? 'none'
      : `https to ${reach.network.allowedDomains.join(', ')}`;
  return `${reach.server}: sandbox required; the workspace view${extra.length === 0 ? '' : ` + ${extra.join(' + ')}`}; network ${network}`;
}

const ON_THE_HOST =
  'commands and MCP stdio servers run on the host, seeing your filesystem and network';

function offReason(settings: Pick<EffectiveSettings, 'sandboxSource'>): string {
  switch (settings.sandboxSource) {
    case 'flag':
      return '(--sandbox off)';
    case 'config':
      return '(process.sandbox "off" in the config)';
    case 'default':
      return `on this platform (${process.platform}; the bubblewrap sandbox is Linux-only)`;
  }
}
