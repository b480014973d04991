import type {
  AbortSignalLike,
  ProcessCapability,
  ProcessResult,
  SpawnOpts,
} from '@toolhost/core/host';
import { ToolDispatchError, ToolPolicyError } from '@toolhost/core';
import { refusedBeforeEffect } from '@toolhost/core/host';
import { buildChildEnv } from './build-child-env.js';
import { neutraliseGitDrivers } from './neutralise-git-drivers.js';
import {
  detectContainment,
  type ContainmentInfo,
  type PidNamespaceMechanism,
} from './detect-containment.js';
import {
  createSandbox,
  standaloneSandboxContext,
  type PreparedSandbox,
  type SandboxDescription,
} from './sandbox/create-sandbox.js';
import { resolveExecutable } from './resolve-executable.js';
import { spawnProcess, type SpawnPlan } from './spawn-process.js';
import { prlimitCommand } from './wrap-command.js';
import { detectPrlimit } from './detect-containment.js';
import {
  clampTimeout,
  resolveProcessArmOptions,
  type ProcessArmOptions,
} from './resolve-process-arm-options.js';

export {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_BUFFER_BYTES,
  DEFAULT_PROCESS_TIMEOUT_MS,
  MAX_PROCESS_TIMEOUT_MS,
} from './resolve-process-arm-options.js';
export type { ProcessArmOptions } from './resolve-process-arm-options.js';

/** The Node process arm plus what `doctor` reports about it. */
export interface ProcessArm extends ProcessCapability {
  /** Which containment and budgets this host actually enforces (probed once). */
  describeContainment(): Promise<ContainmentDescription>;
}

/** A doctor-friendly account of the process floors in force. */
export interface ContainmentDescription {
  readonly containment: ContainmentInfo['mode'];
  /** In `pid-namespace` mode: bwrap's namespace, the addon bracket, or the util-linux wrapper. */
  readonly mechanism?: PidNamespaceMechanism | 'bwrap';
  /** CPU, address space, open files, file size. */
  readonly budgets: 'prlimit' | 'unenforced' | 'none_configured';
  /** Memory and pids of the whole tree: a delegated cgroup v2 would enforce them. */
  readonly treeBudgets: 'unenforced' | 'none_configured';
  /** The filesystem view, network, seccomp and capabilities of a sandboxed command. */
  readonly sandbox: SandboxDescription;
}

/** Builds the process arm; options are normalised here once and never re-checked per call. */
export function createProcessArm(options: ProcessArmOptions): ProcessArm {
  const resolved = resolveProcessArmOptions(options);
  const { root, hostEnv, toolId } = resolved;
  const sandbox = createSandbox(resolved.sandboxMode, resolved.allowance, {
    ...standaloneSandboxContext(root, hostEnv),
    ...options.sandboxContext,
    hostEnv,
    ...(options.bwrapPath === undefined ? {} : { bwrapPath: options.bwrapPath }),
    ...(options.onNetworkDecision === undefined
      ? {}
      : { onNetworkDecision: options.onNetworkDecision }),
    ...(options.onQuarantine === undefined ? {} : { onQuarantine: options.onQuarantine }),
  });

  // Everything a spawn is judged and resolved by, before any child starts.
  const planSpawn = async (
    command: string,
    args: readonly string[],
    declaredEnv: Readonly<Record<string, string>>,
    opts: SpawnOpts,
    signal: AbortSignalLike | undefined,
  ): Promise<SpawnPlan> => {
    // Env first: a hijack attempt is fatal whatever else is wrong with the call.
    const baseEnv = buildChildEnv(
      hostEnv,
      declaredEnv,
      toolId,
      opts.hostCallOptions?.idempotencyKey,
    );
    if (args.some((arg) => arg.includes('\0'))) throw new ToolPolicyError(toolId, 'invalid_path');
    const cwd = await resolved.resolveCwd(root, opts.cwd);
    const file = await resolveExecutable({
      command,
      searchPath: hostEnv['PATH'] ?? '',
      cwd,
      root,
      toolId,
    });
    // A repository's drivers are named by the repository: only its own config lists them.
    const env = await neutraliseGitDrivers({ toolId, file, cwd, env: baseEnv, signal });
    let containment: ContainmentInfo;
    let prepared: PreparedSandbox | undefined;
    if (sandbox.mode === 'required') {
      const prlimit = await detectPrlimit();
      containment = {
        mode: 'pid-namespace',
        mechanism: 'bwrap',
        ...(prlimit === undefined ? {} : { prlimit }),
      };
      prepared = await sandbox.prepare({
        toolId,
        file,
        args,
        env,
        cwd,
        limits: prlimitCommand(prlimit, resolved.budgets),
      });
    } else {
      containment = await detectContainment(resolved.containment, {
        mechanism: resolved.pidNamespaceMechanism,
      });
    }
    return {
      toolId,
      file,
      args,
      env,
      cwd,
      timeoutMs: clampTimeout(opts.timeoutMs, resolved),
      killGraceMs: resolved.killGraceMs,
      maxBufferBytes: resolved.maxBufferBytes,
      containment,
      budgets: resolved.budgets,
      openSpill: resolved.openSpill,
      onOutput: resolved.onOutput,
      sandbox: prepared,
    };
  };

  return {
    async spawn(
      command: string,
      args: readonly string[],
      declaredEnv: Readonly<Record<string, string>>,
      opts: SpawnOpts,
      signal?: AbortSignalLike,
    ): Promise<ProcessResult> {
      let plan: SpawnPlan;
      try {
        plan = await planSpawn(command, args, declaredEnv, opts, signal);
      } catch (error) {
        // Nothing of the command has run: every refusal up to here (env, NUL, cwd, executable,
        // git drivers, the sandbox's preparation) precedes its effect. The preparation's only
        // writes are mount-point stubs a git dir may hold anyway, made again alike on a rerun.
        throw error instanceof ToolDispatchError ? refusedBeforeEffect(error) : error;
      }
      const run = (): Promise<ProcessResult> => spawnProcess(plan, signal);
      // The runner's lifetime authority keeps its runtime alive until the child has settled.
      const retainWork = opts.hostCallOptions?.retainWork;
      return retainWork === undefined ? run() : retainWork(run);
    },

    async describeContainment(): Promise<ContainmentDescription> {
      const description = await sandbox.describe();
      const containment: Pick<ContainmentInfo, 'mode' | 'mechanism' | 'prlimit'> =
        sandbox.mode === 'required'
          ? await detectPrlimit().then((prlimit) => ({
              mode: 'pid-namespace' as const,
              mechanism: 'bwrap' as const,
              ...(prlimit === undefined ? {} : { prlimit }),
            }))
          : await detectContainment(resolved.containment, {
              mechanism: resolved.pidNamespaceMechanism,
            });
      const { cpuSeconds, addressSpaceBytes, openFiles, fileSizeBytes, memoryBytes, pids } =
        resolved.budgets ?? {};
      const configured = [cpuSeconds, addressSpaceBytes, openFiles, fileSizeBytes].some(
        (budget) => budget !== undefined,
      );
      return {
        containment: containment.mode,
        ...(containment.mechanism === undefined ? {} : { mechanism: containment.mechanism }),
        budgets: !configured
          ? 'none_configured'
          : containment.prlimit !== undefined
            ? 'prlimit'
            : 'unenforced',
        treeBudgets:
          memoryBytes === undefined && pids === undefined ? 'none_configured' : 'unenforced',
        sandbox: description,
      };
    },
  };
}
