import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { ToolUnavailableError, type FsScopeTier } from '@toolhost/core';
import type { FloorContext } from '../../fs/floor.js';
import { buildSandboxArgs, NETWORK_INIT_PATH } from './build-sandbox-args.js';
import { probeSandbox } from './detect-sandbox.js';
import {
  createSandboxEgressProxy,
  type SandboxEgressDecision,
  type SandboxEgressProxy,
} from './egress-proxy.js';
import { closeQuietly, loadNetworkHelper } from './load-network-helper.js';
import {
  quarantineGitIndirections,
  type SandboxGitQuarantine,
} from './quarantine-git-indirections.js';
import { SANDBOX_PROXY_PORT, sandboxEnv } from './sandbox-env.js';
import { seccompFile } from './sandbox-files.js';
import type { SandboxAllowance, SandboxEgressSeams, SandboxMode } from './sandbox-options.js';
import { buildView } from './sandbox-view.js';
import { SECCOMP_DENIED_SYSCALLS } from './seccomp-filter.js';

export { proxyEnv, SANDBOX_PROXY_PORT } from './sandbox-env.js';

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
  /** One event per git indirection a run made or replaced, moved out of the host's git's way. */
  readonly onGitQuarantine?: (event: SandboxGitQuarantine) => void;
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
  /** stdio descriptors from index 3 on (the seccomp program, the network handoff socket). */
  readonly extraStdio: readonly number[];
  /** Call right after `spawn` returned: closes the host's copies, starts serving the proxy. */
  started(child: ChildProcess): void;
  /** Call once the child closed: the git quarantine, stubs, the proxy listener. Idempotent. */
  release(): void;
}

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
  const proxies = new Map<string, SandboxEgressProxy>();
  const proxyFor = (domains: readonly string[]): SandboxEgressProxy => {
    const key = JSON.stringify(domains);
    let proxy = proxies.get(key);
    if (proxy === undefined) {
      proxy = createSandboxEgressProxy({
        allowedDomains: domains,
        ...(context.egress ?? {}),
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
      const view = await buildView(context, request, effective);
      const extraStdio: number[] = [];
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
          bindPath: NETWORK_INIT_PATH,
          hostPath: network.initPath,
          fd,
          port: SANDBOX_PROXY_PORT,
        };
      }
      const env = sandboxEnv(request.env, context, network !== undefined, view.identityEnv);
      const args = buildSandboxArgs({
        ...view.args,
        env,
        cwd: request.cwd,
        ...(seccompFd === undefined ? {} : { seccompFd }),
        ...(networkInit === undefined ? {} : { networkInit }),
        limits: request.limits,
        command: [request.file, ...request.args],
      });
      let server: Server | undefined;
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
          onGitQuarantine: context.onGitQuarantine,
        });
        closeFilter();
        view.stubs.release();
        server?.close();
        if (pair !== undefined && network !== undefined) closeQuietly(network, pair);
      };
      return {
        file: probe.bwrap,
        args,
        // bwrap itself gets the same minimal env: its /proc/1/environ is readable inside.
        env,
        extraStdio,
        started() {
          // The child holds its own copy from the moment `spawn` returned.
          closeFilter();
          if (network === undefined || pair === undefined) return;
          const [hostEnd, childEnd] = pair;
          network.closeFd(childEnd);
          pair = undefined;
          const proxy = proxyFor(domains);
          void network
            .receiveFd(hostEnd, 10_000)
            .then((listener) => {
              if (released) return network.closeFd(listener);
              // Half-open: a client that ends its side before reading still gets the answer.
              server = createServer({ allowHalfOpen: true }, (socket) =>
                proxy.handleConnection(socket),
              );
              server.on('error', () => undefined);
              server.listen({ fd: listener });
            })
            // The init exits 127 when it cannot hand the listener out: the command never ran.
            .catch(() => undefined)
            .finally(() => network.closeFd(hostEnd));
        },
        release,
      };
    },

    async describe(forAllowance) {
      const effective = forAllowance ?? allowance;
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
    },
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
