import type { NodeHostParts } from '../create-node-tool-host.js';
import { createProcessArm, type ProcessArm, type ProcessArmOptions } from './create-process-arm.js';
import { createSpillOpener } from './create-spill-opener.js';
import { toCwdError } from './to-cwd-error.js';
import type { EgressOptions } from '../egress/resolve-egress-options.js';
import type { SandboxEgressSeams } from './sandbox/sandbox-options.js';

/** What an embedder may set on the host's process arm; the host supplies root, jail and spill. */
export type NodeProcessOptions = Omit<
  ProcessArmOptions,
  'root' | 'openSpill' | 'resolveCwd' | 'toolId' | 'sandboxContext'
>;

/**
 * The `process` arm of `createNodeToolHost`, to spread into the host: `{}` unless the embedder
 * passed `process` options (spawning is opted into, never a default). A `cwd` opens through the
 * fs jail exactly like a directory read (scope tier, symlinks, read floor), and overflowing
 * output spills into the run's spill directory.
 */
export function createHostProcessArm(parts: NodeHostParts): { readonly process?: ProcessArm } {
  const options = parts.options.process;
  if (options === undefined) return {};
  const { jail, outputStore } = parts;
  const { root, fsScope, extraRoots, stateDir, configFile, egress } = parts.options;
  const process = createProcessArm({
    ...options,
    root,
    // The sandbox shows what the jail allows: the same tier, roots and floors.
    sandboxContext: {
      fsScope,
      roots: [root, ...extraRoots],
      floor: { stateDir, spillDir: outputStore.directory, configFile },
      stateDir,
      ...(egress === undefined ? {} : { egress: sandboxEgressSeams(egress) }),
      ...(parts.egressConnections === undefined
        ? {}
        : { egressConnections: parts.egressConnections }),
    },
    openSpill: createSpillOpener(outputStore.directory, outputStore.quota),
    resolveCwd: async (root, requested) => {
      if (requested === undefined || requested === '') return root;
      let opened;
      try {
        opened = await jail.openForRead('run_command', requested, 'directory');
      } catch (error) {
        // A Node error's message names the host path: it rides on `cause`, like an fs read's.
        throw toCwdError('run_command', error);
      }
      await opened.handle.close();
      return opened.path;
    },
  });
  // Each spawn is one call of the spill quota: its stdout and stderr share one budget.
  const spawn: ProcessArm['spawn'] = (command, args, declaredEnv, opts, signal) =>
    outputStore.quota.runCall(() => process.spawn(command, args, declaredEnv, opts, signal));
  return { process: { ...process, spawn } };
}

// The proxy of a network allowance resolves and dials exactly as the egress arm does.
function sandboxEgressSeams(egress: EgressOptions): SandboxEgressSeams {
  return {
    ...(egress.lookup === undefined ? {} : { lookup: egress.lookup }),
    ...(egress.dangerouslyAllowRanges === undefined
      ? {}
      : { dangerouslyAllowRanges: egress.dangerouslyAllowRanges }),
    ...(egress.dialTcp === undefined ? {} : { dialTcp: egress.dialTcp }),
  };
}
