import { probeSandbox } from './detect-sandbox.js';
import type { SandboxContext } from './create-sandbox.js';
import type { SandboxAllowance, SandboxMode } from './sandbox-options.js';
import { SECCOMP_DENIED_SYSCALLS } from './seccomp-filter.js';

/** The doctor's account of the sandbox floors. */
export interface SandboxDescription {
  readonly mode: SandboxMode;
  readonly available: boolean;
  readonly version?: string;
  readonly why?: string;
  readonly filesystem: string;
  readonly network: 'none' | { readonly allowedDomains: readonly string[] };
  readonly seccomp: 'on' | 'unavailable_for_arch' | 'off';
  readonly deniedSyscalls: readonly string[];
  readonly capabilities: 'all dropped' | 'host';
}

/** What `doctor` and `serve` say of a sandbox: its mode, whether bwrap works here, its floors. */
export async function describeSandbox(
  mode: SandboxMode,
  effective: SandboxAllowance,
  context: SandboxContext,
  probeOptions: Parameters<typeof probeSandbox>[0],
): Promise<SandboxDescription> {
  const probe = await probeSandbox(probeOptions);
  const domains = effective.network?.allowedDomains ?? [];
  const base = {
    mode,
    network: domains.length === 0 ? ('none' as const) : { allowedDomains: domains },
    filesystem: describeFilesystem(context, effective),
  };
  if (mode === 'off') {
    return {
      ...base,
      available: probe.available,
      filesystem: 'host (sandbox off)',
      network: { allowedDomains: ['*'] },
      seccomp: 'off',
      deniedSyscalls: [],
      capabilities: 'host',
    };
  }
  if (!probe.available) {
    return {
      ...base,
      available: false,
      why: probe.why,
      seccomp: 'off',
      deniedSyscalls: [],
      capabilities: 'all dropped',
    };
  }
  return {
    ...base,
    available: true,
    version: probe.version,
    seccomp: probe.seccompArch === undefined ? 'unavailable_for_arch' : 'on',
    deniedSyscalls: probe.seccompArch === undefined ? [] : SECCOMP_DENIED_SYSCALLS,
    capabilities: 'all dropped',
  };
}

function describeFilesystem(context: SandboxContext, allowance: SandboxAllowance): string {
  const extras =
    (allowance.readOnlyPaths?.length ?? 0) + (allowance.readWritePaths?.length ?? 0) > 0
      ? ' + declared paths'
      : '';
  if (context.fsScope === 'full') {
    return `host read-only, workspace read-write, secrets masked${extras}`;
  }
  const roots = context.fsScope === 'project' ? 'workspace + extra roots' : 'workspace';
  return `allowlist: /usr /etc (secrets masked), executable prefixes, ${roots} read-write (floors applied), empty HOME, private /tmp${extras}`;
}
