import type { ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ToolExecutionError, ToolUnavailableError } from '@toolhost/core';
import type { FsScopeTier } from '@toolhost/core/policy';
import type { FloorContext } from '../../fs/floor.js';
import { buildSandboxArgs, initBindPath } from './build-sandbox-args.js';
import { probeSandbox } from './detect-sandbox.js';
import {
  createEgressConnectionBudget,
  type EgressConnectionBudget,
} from './egress-connection-budget.js';
import {
  createSandboxEgressProxy,
  type SandboxEgressDecision,
  type SandboxEgressGate,
  type SandboxEgressProxy,
} from './egress-proxy.js';
import { closeQuietly, loadNetworkHelper } from './load-network-helper.js';
import { quarantineConfigFile, type SandboxQuarantineEvent } from './quarantine-config-file.js';
import { loadWaitInit } from './load-wait-init.js';
import { collectWaitRecord, type SandboxExitReport, type WaitRecord } from './read-wait-record.js';
import { quarantineGitIndirections } from './quarantine-git-indirections.js';
import { SANDBOX_PROXY_PORT, sandboxEnv } from './sandbox-env.js';
import { seccompFile } from './sandbox-files.js';
import type {
  SandboxAllowance,
  SandboxEgressSeams,
  SandboxMode,
  SandboxNetworkOptions,
} from './sandbox-options.js';
import { describeSandbox, type SandboxDescription } from './describe-sandbox.js';
import { buildView } from './sandbox-view.js';
import { holdSandboxStart } from './hold-sandbox-start.js';
import { planSandboxMounts, type FileIdentity } from './sandbox-mount-plan.js';

export { proxyEnv, SANDBOX_PROXY_PORT } from './sandbox-env.js';

// How long bwrap may take to build the view before the host gives up on checking it.
const START_CHECK_MS = 30_000;
export type { SandboxDescription } from './describe-sandbox.js';

/** What the host tells the sandbox about itself: the scope tier, its roots and its floors. */
export interface SandboxContext {
  readonly fsScope: FsScopeTier;
  /** The workspace root first, then the `project` tier's extra roots. */
  readonly roots: readonly string[];
  readonly floor: FloorContext;
  /** Host state: the probe cache and the filtered git configs live under `<stateDir>/sandbox`. */
  readonly stateDir?: string;
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  /** A specific bwrap (tests point it at a missing binary). */
  readonly bwrapPath?: string;
  /** The egress arm's test seams, for the proxy of a network allowance. */
  readonly egress?: SandboxEgressSeams;
  /** One audit event per proxy decision (host, port, allowed or why not, bytes). */
  readonly onNetworkDecision?: (decision: SandboxEgressDecision) => void;
  /**
   * One event per name a run left that the host moved aside once it ended: a git indirection
   * (the host's next `git` would read it) or a config file that appeared.
   */
  readonly onQuarantine?: (event: SandboxQuarantineEvent) => void;
  /**
   * The host's count of open proxy connections, shared by all its sandboxes (the process arm's
   * and every MCP server's); absent, the sandbox counts its own, capped at the allowance's
   * `network.maxConnections`.
   */
  readonly egressConnections?: EgressConnectionBudget;
}

/** One command to run sandboxed, already resolved and checked by the process arm. */
export interface SandboxRequest {
  readonly toolId: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** `prlimit` and its options, run inside the sandbox just before the command. */
  readonly limits: readonly string[];
  /** Overrides the arm's allowance (an MCP server entry declares its own). */
  readonly allowance?: SandboxAllowance;
}

/** A spawn ready to start: bwrap's argv, its env, the extra descriptors, and the teardown. */
export interface PreparedSandbox {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /**
   * stdio entries from index 3 on: the seccomp program and the network handoff socket as
   * descriptors, the waiting init's status channel as a `'pipe'` Node creates.
   */
  readonly extraStdio: readonly (number | 'pipe')[];
  /**
   * Call right after `spawn` returned: closes the host's copies, starts serving the proxy, starts
   * reading the status channel.
   */
  started(child: ChildProcess): void;
  /**
   * Why the host killed the sandbox before its command ran (a mount not where the plan put it,
   * a check that could not be made); `undefined`: the command was let go, or is still held.
   */
  startRefused(): string | undefined;
  /** Once the child closed: how the command ended, as far as the sandbox can tell. */
  exitReport(): SandboxExitReport;
  /** Call once the child closed: the quarantine, pinned descriptors, the proxy. Idempotent. */
  release(): void;
}

/** The sandbox every child of a host runs in; `prepare` is called once per spawn. */
export interface Sandbox {
  readonly mode: SandboxMode;
  /** The workspace root: where a command with no cwd of its own starts. */
  readonly root: string;
  prepare(request: SandboxRequest): Promise<PreparedSandbox>;
  describe(allowance?: SandboxAllowance): Promise<SandboxDescription>;
}

/**
 * The context of a sandbox built without a host (a process or MCP arm on its own): `root` is the
 * workspace, in the `sandboxed` tier, with the default config file name on the floor.
 */
export function standaloneSandboxContext(
  root: string,
  hostEnv: Readonly<Record<string, string | undefined>>,
): SandboxContext {
  return {
    fsScope: 'sandboxed',
    roots: [root],
    floor: {
      stateDir: '/nonexistent/toolhost-state',
      spillDir: '/nonexistent/toolhost-state/spill',
      configFile: path.join(root, 'toolhost.config.json'),
    },
    hostEnv,
  };
}

// In a file of its own so the host's light entry (`@toolhost/node/host`) need not load the sandbox.
export { defaultSandboxMode } from './default-sandbox-mode.js';

/** Builds the host's sandbox; `mode: 'off'` still answers `describe`. */
export function createSandbox(
  mode: SandboxMode,
  allowance: SandboxAllowance,
  context: SandboxContext,
): Sandbox {
  const probeOptions = {
    ...(context.bwrapPath === undefined ? {} : { bwrapPath: context.bwrapPath }),
    ...(context.stateDir === undefined ? {} : { cacheDir: path.join(context.stateDir, 'sandbox') }),
  };
  const connectionBudget =
    context.egressConnections ?? createEgressConnectionBudget(allowance.network?.maxConnections);
  checkPerSandboxCap(allowance, connectionBudget);
  const proxies = new Map<string, SandboxEgressProxy>();
  // Looked up once per sandbox: the answer cannot change while the host runs.
  let waitInitLookup: Promise<string | undefined> | undefined;
  const proxyFor = (network: SandboxNetworkOptions): SandboxEgressProxy => {
    const { allowedDomains, maxConnectionsPerSandbox } = network;
    const key = JSON.stringify([allowedDomains, maxConnectionsPerSandbox]);
    let proxy = proxies.get(key);
    if (proxy === undefined) {
      proxy = createSandboxEgressProxy({
        allowedDomains,
        ...(context.egress ?? {}),
        connectionBudget,
        ...(maxConnectionsPerSandbox === undefined ? {} : { maxConnectionsPerSandbox }),
        ...(context.onNetworkDecision === undefined
          ? {}
          : { onDecision: context.onNetworkDecision }),
      });
      proxies.set(key, proxy);
    }
    return proxy;
  };

  return {
    mode,
    root: context.roots[0] ?? '/',
    async prepare(request) {
      const probe = await probeSandbox(probeOptions);
      if (!probe.available) {
        throw new ToolUnavailableError(request.toolId, 'process', {
          reason: 'sandbox_unavailable',
        });
      }
      const effective = request.allowance ?? allowance;
      const domains = effective.network?.allowedDomains ?? [];
      const network = domains.length === 0 ? undefined : await loadNetworkHelper(request.toolId);
      if (request.allowance !== undefined) checkPerSandboxCap(request.allowance, connectionBudget);
      // Made before the spawn, so a bad cap fails the call rather than the started child.
      const proxy =
        network === undefined || effective.network === undefined
          ? undefined
          : proxyFor(effective.network);
      const waitInit = await (waitInitLookup ??= loadWaitInit());
      const extraStdio: (number | 'pipe')[] = [];
      // Every descriptor the view pinned goes to bwrap, which consumes it in its mount; the
      // host's copies close once the child has its own (or now, if the view is refused).
      const pinned: number[] = [];
      // What each pinned descriptor is, taken now: the start check compares the mounts with it.
      const identities = new Map<number, FileIdentity>();
      const register = (hostFd: number): number => {
        pinned.push(hostFd);
        const childFd = 3 + extraStdio.push(hostFd) - 1;
        const { dev, ino } = fstatSync(hostFd, { bigint: true });
        identities.set(childFd, { dev, ino });
        return childFd;
      };
      const closePinned = (): void => {
        for (const fd of pinned.splice(0)) closeSync(fd);
      };
      let view;
      try {
        view = await buildView(context, request, effective, register);
      } catch (error) {
        closePinned();
        throw error;
      }
      // Opened per spawn: each open is its own file offset, so bwrap reads the whole program.
      let filterFd =
        probe.seccompArch === undefined
          ? undefined
          : openSync(seccompFile(context, probe.seccompArch), 'r');
      const seccompFd = filterFd === undefined ? undefined : 3 + extraStdio.push(filterFd) - 1;
      const closeFilter = (): void => {
        if (filterFd !== undefined) closeSync(filterFd);
        filterFd = undefined;
      };
      let pair: [number, number] | undefined;
      let networkInit;
      if (network !== undefined) {
        pair = network.socketPair();
        const fd = 3 + extraStdio.push(pair[1]) - 1;
        networkInit = {
          bindPath: initBindPath(context.fsScope, 'net-init'),
          hostPath: network.initPath,
          fd,
          port: SANDBOX_PROXY_PORT,
        };
      }
      // Node makes the pipe; the host reads it once the child is started.
      const statusFd = waitInit === undefined ? undefined : 3 + extraStdio.push('pipe') - 1;
      let readRecord: (() => WaitRecord | 'unknown') | undefined;
      // bwrap waits on the block channel once the view is built: the host checks it first.
      const infoFd = 3 + extraStdio.push('pipe') - 1;
      const blockFd = 3 + extraStdio.push('pipe') - 1;
      let startRefused: string | undefined;
      const env = sandboxEnv(request.env, context, network !== undefined, view.identityEnv);
      const args = buildSandboxArgs({
        ...view.args,
        env,
        cwd: request.cwd,
        ...(seccompFd === undefined ? {} : { seccompFd }),
        ...(networkInit === undefined ? {} : { networkInit }),
        ...(waitInit === undefined || statusFd === undefined
          ? {}
          : {
              waitInit: {
                bindPath: initBindPath(context.fsScope, 'wait-init'),
                hostPath: waitInit,
                fd: statusFd,
              },
            }),
        startGate: { infoFd, blockFd },
        limits: request.limits,
        command: [request.file, ...request.args],
      });
      let expectedMounts;
      try {
        const { writableRoots, readWritePaths } = view.args;
        expectedMounts = planSandboxMounts(args, [...writableRoots, ...readWritePaths], (fd) =>
          identities.get(fd),
        );
      } catch (error) {
        closeFilter();
        closePinned();
        if (pair !== undefined && network !== undefined) closeQuietly(network, pair);
        throw new ToolExecutionError(request.toolId, 'containment_failed', { cause: error });
      }
      let server: Server | undefined;
      let gate: SandboxEgressGate | undefined;
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        // First, before the host runs anything else: the user's next `git` must not read what the
        // run left in a git dir (quarantine-git-indirections.ts).
        quarantineGitIndirections({
          toolId: request.toolId,
          snapshots: view.gitIndirections,
          roots: view.writableRoots,
          gitDirsNow: view.gitDirsNow,
          onQuarantine: context.onQuarantine,
        });
        if (view.configFileAbsent) {
          const moved = quarantineConfigFile(
            request.toolId,
            context.floor.configFile,
            context.roots[0] ?? '/',
          );
          try {
            if (moved !== undefined) context.onQuarantine?.(moved);
          } catch {
            // A throwing listener must not keep the proxy and descriptors open.
          }
        }
        closeFilter();
        closePinned();
        server?.close();
        gate?.close();
        if (pair !== undefined && network !== undefined) closeQuietly(network, pair);
      };
      return {
        file: probe.bwrap,
        args,
        // bwrap itself gets the same minimal env: its /proc/1/environ is readable inside.
        env,
        extraStdio,
        started(child) {
          // The child holds its own copy from the moment `spawn` returned.
          closeFilter();
          closePinned();
          const statusStream = statusFd === undefined ? undefined : child.stdio[statusFd];
          if (statusStream instanceof Readable) readRecord = collectWaitRecord(statusStream);
          const info = child.stdio[infoFd];
          const block = child.stdio[blockFd];
          const kill = (why: string): void => {
            startRefused ??= why;
            child.kill('SIGKILL');
          };
          if (info instanceof Readable && block instanceof Writable) {
            block.on('error', () => undefined);
            void holdSandboxStart({ info, block, blockFd }, expectedMounts, kill, START_CHECK_MS);
          } else {
            kill('no_start_channel');
          }
          if (network === undefined || pair === undefined || proxy === undefined) return;
          const [hostEnd, childEnd] = pair;
          network.closeFd(childEnd);
          pair = undefined;
          void network
            .receiveFd(hostEnd, 10_000)
            .then((listener) => {
              if (released) return network.closeFd(listener);
              // One gate per spawn: its own connection cap, so its flood cannot starve another's.
              const spawnGate = proxy.openSandbox();
              gate = spawnGate;
              // Half-open: a client that ends its side before reading still gets the answer.
              server = createServer({ allowHalfOpen: true }, (socket) =>
                spawnGate.handleConnection(socket),
              );
              server.on('error', () => undefined);
              server.listen({ fd: listener });
            })
            // The init exits 127 when it cannot hand the listener out: the command never ran.
            .catch(() => undefined)
            .finally(() => network.closeFd(hostEnd));
        },
        release,
        startRefused: () => startRefused,
        exitReport() {
          if (statusFd === undefined) return 'no_wait_init';
          return readRecord?.() ?? 'unknown';
        },
      };
    },

    describe: (forAllowance) =>
      describeSandbox(mode, forAllowance ?? allowance, context, probeOptions),
  };
}

// The allowance was checked against the default total; the host's shared one may be lower.
function checkPerSandboxCap(allowance: SandboxAllowance, budget: EgressConnectionBudget): void {
  const perSandbox = allowance.network?.maxConnectionsPerSandbox;
  if (perSandbox !== undefined && perSandbox > budget.maxConnections) {
    throw new TypeError(
      "toolhost: sandbox network.maxConnectionsPerSandbox must not exceed the host's maxConnections",
    );
  }
}
