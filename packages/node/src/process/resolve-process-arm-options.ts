import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { OpenProcessSpill } from './capture-output.js';
import type {
  ContainmentPreference,
  PidNamespaceMechanismPreference,
} from './detect-containment.js';
import type { ProcessOutputObserver } from './process-output-observer.js';
import { resolveCwd } from './resolve-cwd.js';
import { defaultSandboxMode, type SandboxContext } from './sandbox/create-sandbox.js';
import type { SandboxEgressDecision } from './sandbox/egress-proxy.js';
import type { SandboxQuarantineEvent } from './sandbox/quarantine-config-file.js';
import {
  checkSandboxAllowance,
  checkSandboxMode,
  type SandboxMode,
  type SandboxNetworkOptions,
} from './sandbox/sandbox-options.js';
import type { ProcessBudgets } from './spawn-process.js';

/** Options of the Node process arm. */
export interface ProcessArmOptions {
  /** The jail root every `cwd` (and every relative executable path) must stay inside. */
  readonly root: string;
  /** Where the base env values (and PATH for lookup) come from. Default: `process.env`. */
  readonly hostEnv?: Readonly<Record<string, string | undefined>>;
  /** Default wall-clock budget (30 s); a call's `timeoutMs` is clamped to `maxTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Ceiling for any call's timeout (10 min). */
  readonly maxTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL (2 s). */
  readonly killGraceMs?: number;
  /** In-memory capture per stream (1 MiB); the rest is spilled. */
  readonly maxBufferBytes?: number;
  /** OS-enforced budgets; reported as unenforced by `describeContainment` without `prlimit`. */
  readonly budgets?: ProcessBudgets;
  /** Where overflowing output goes; absent ⇒ the overflow is counted and dropped. */
  readonly openSpill?: OpenProcessSpill;
  /** Force a weaker containment (tests, or a platform where `unshare` misbehaves). */
  readonly containment?: ContainmentPreference;
  /**
   * How a PID namespace is made: `auto` prefers the in-process addon (root) over util-linux
   * `unshare`; forcing one that does not work here falls to the next containment mode.
   */
  readonly pidNamespaceMechanism?: PidNamespaceMechanismPreference;
  /** A different cwd jail (the fs arm's resolver); default: realpath + prefix check. */
  readonly resolveCwd?: (root: string, requested: string | undefined) => Promise<string>;
  /** The tool id stamped on the arm's errors (`run_command`). */
  readonly toolId?: string;
  /** Sees stdout/stderr chunks as they arrive (a progress display); never alters a result. */
  readonly onOutput?: ProcessOutputObserver;
  /**
   * `required` (default on Linux): every command runs inside bubblewrap — the workspace, not the
   * machine — and spawning fails closed when it cannot. `off`: on the host (default elsewhere).
   */
  readonly sandbox?: SandboxMode;
  /** Exact host names sandboxed commands may reach over HTTPS (through the host's proxy). */
  readonly network?: SandboxNetworkOptions;
  /** Absolute host paths a sandboxed command also sees read-only (a toolchain home). */
  readonly readOnlyPaths?: readonly string[];
  /** Absolute host paths a sandboxed command may also write (the write floor still applies). */
  readonly readWritePaths?: readonly string[];
  /** One audit event per decision of the network allowance's proxy. */
  readonly onNetworkDecision?: (decision: SandboxEgressDecision) => void;
  /**
   * One event per name a sandboxed command left that the host moved aside before running anything
   * else: a git indirection (`commondir`, `objects/info/alternates`…) made or replaced in a
   * repository, moved to `<gitDir>/toolhost-quarantine-*` (`kind: 'git_indirection'`), or a
   * config file that appeared, renamed beside itself (`kind: 'config_file'`).
   */
  readonly onQuarantine?: (event: SandboxQuarantineEvent) => void;
  /** A specific bubblewrap binary; default `/usr/bin/bwrap` (tests point it at a missing one). */
  readonly bwrapPath?: string;
  /** What the host's fs jail knows: tier, roots and floors (the host fills it in). */
  readonly sandboxContext?: Omit<SandboxContext, 'hostEnv' | 'bwrapPath'>;
}

/** Spec §4: default wall-clock budget of a command. */
export const DEFAULT_PROCESS_TIMEOUT_MS = 30_000;
/** Spec §4: no configuration may lift a command's budget past 10 minutes. */
export const MAX_PROCESS_TIMEOUT_MS = 600_000;
/** Spec §4: between SIGTERM and SIGKILL. */
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** In-memory capture per stream; the rest of the stream is spilled. */
export const DEFAULT_MAX_BUFFER_BYTES = 1024 * 1024;

const CONTAINMENTS: readonly ContainmentPreference[] = [
  'auto',
  'pid-namespace',
  'proc-walk',
  'process-group',
];
const MECHANISMS: readonly PidNamespaceMechanismPreference[] = ['auto', 'in-process', 'unshare'];
const BUDGET_NAMES: readonly string[] = [
  'cpuSeconds',
  'addressSpaceBytes',
  'openFiles',
  'fileSizeBytes',
  'memoryBytes',
  'pids',
];

/** Fills the arm's defaults and rejects bad options at creation, not on first use. */
export function resolveProcessArmOptions(options: ProcessArmOptions) {
  const {
    hostEnv = process.env,
    timeoutMs = DEFAULT_PROCESS_TIMEOUT_MS,
    maxTimeoutMs = MAX_PROCESS_TIMEOUT_MS,
    killGraceMs = DEFAULT_KILL_GRACE_MS,
    maxBufferBytes = DEFAULT_MAX_BUFFER_BYTES,
    containment = 'auto',
    pidNamespaceMechanism = 'auto',
    toolId = 'run_command',
  } = options;
  if (!path.isAbsolute(options.root))
    throw new TypeError('toolhost: process root must be absolute');
  if (!(timeoutMs > 0) || !(maxTimeoutMs >= timeoutMs) || maxTimeoutMs > MAX_PROCESS_TIMEOUT_MS) {
    throw new TypeError(
      'toolhost: process timeouts must be positive, timeoutMs <= maxTimeoutMs <= 10 minutes',
    );
  }
  if (!(killGraceMs >= 0)) throw new TypeError('toolhost: killGraceMs must not be negative');
  if (!CONTAINMENTS.includes(containment)) {
    throw new TypeError(
      'toolhost: containment must be auto, pid-namespace, proc-walk or process-group',
    );
  }
  if (!MECHANISMS.includes(pidNamespaceMechanism)) {
    throw new TypeError('toolhost: pidNamespaceMechanism must be auto, in-process or unshare');
  }
  if (!(maxBufferBytes >= 1024)) throw new TypeError('toolhost: maxBufferBytes must be >= 1024');
  for (const [name, value] of Object.entries(options.budgets ?? {})) {
    if (!BUDGET_NAMES.includes(name)) throw new TypeError(`toolhost: unknown budget ${name}`);
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new TypeError(`toolhost: budgets.${name} must be a positive integer`);
    }
  }
  const sandboxMode = options.sandbox ?? defaultSandboxMode();
  checkSandboxMode(sandboxMode, 'process');
  const allowance = {
    ...(options.network === undefined ? {} : { network: options.network }),
    ...(options.readOnlyPaths === undefined ? {} : { readOnlyPaths: options.readOnlyPaths }),
    ...(options.readWritePaths === undefined ? {} : { readWritePaths: options.readWritePaths }),
  };
  checkSandboxAllowance(allowance, 'process');
  return {
    // The jail compares realpaths, so the root is one too (macOS /tmp → /private/tmp).
    root: realpathSync(options.root),
    hostEnv: { ...hostEnv },
    timeoutMs,
    maxTimeoutMs,
    killGraceMs,
    maxBufferBytes,
    containment,
    pidNamespaceMechanism,
    toolId,
    sandboxMode,
    allowance,
    budgets: options.budgets,
    openSpill: options.openSpill,
    onOutput: options.onOutput,
    resolveCwd:
      options.resolveCwd ??
      ((root: string, requested: string | undefined) => resolveCwd(root, requested, toolId)),
  };
}

/** A call's timeout: the default when absent or not positive, never past the ceiling. */
export function clampTimeout(
  requested: number | undefined,
  limits: { readonly timeoutMs: number; readonly maxTimeoutMs: number },
): number {
  if (requested === undefined || !(requested > 0)) return limits.timeoutMs;
  return Math.min(requested, limits.maxTimeoutMs);
}
