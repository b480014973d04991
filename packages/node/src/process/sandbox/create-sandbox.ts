import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolUnavailableError, type FsScopeTier } from '@toolhost/core';
import type { FloorContext } from '../../fs/floor.js';
import {
  buildSandboxArgs,
  NETWORK_INIT_PATH,
  type SandboxRepository,
} from './build-sandbox-args.js';
import { probeSandbox } from './detect-sandbox.js';
import {
  createSandboxEgressProxy,
  type SandboxEgressDecision,
  type SandboxEgressProxy,
} from './egress-proxy.js';
import { executablePrefixes } from './executable-prefixes.js';
import { filterGitConfig } from './filter-git-config.js';
import { ensureProtectedNames } from './protected-stubs.js';
import { identityConfigEnv, readHostGitIdentity } from './read-host-git-identity.js';
import { scanWorkspace, type MaskedPath, type WorkspaceScan } from './scan-workspace.js';
import { buildSeccompFilter, SECCOMP_DENIED_SYSCALLS, type SeccompArch } from './seccomp-filter.js';
import type { SandboxAllowance, SandboxEgressSeams, SandboxMode } from './sandbox-options.js';
import { HOME_SECRETS, systemView } from './system-view.js';

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
  /** Call once the child closed: stubs, the proxy listener. Idempotent. */
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

/** Inside the sandbox's own network namespace: nothing else listens there. */
export const SANDBOX_PROXY_PORT = 3128;

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

/** `required` on Linux, where bubblewrap exists; `off` elsewhere (doctor and serve say so). */
export function defaultSandboxMode(): SandboxMode {
  return process.platform === 'linux' ? 'required' : 'off';
}

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

interface SandboxNetHelper {
  readonly initPath: string;
  socketPair(): [number, number];
  receiveFd(fd: number, timeoutMs: number): Promise<number>;
  closeFd(fd: number): void;
}

// Optional: only a network allowance needs it, and without it that allowance fails closed.
async function loadNetworkHelper(toolId: string): Promise<SandboxNetHelper> {
  let helper: SandboxNetHelper | undefined;
  try {
    helper = (await import('@toolhost/sandbox-net')).loadSandboxNet();
  } catch {
    helper = undefined;
  }
  if (helper === undefined) {
    throw new ToolUnavailableError(toolId, 'process', { reason: 'sandbox_network_unavailable' });
  }
  return helper;
}

function closeQuietly(network: SandboxNetHelper, fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      network.closeFd(fd);
    } catch {
      // Already closed.
    }
  }
}

async function buildView(
  context: SandboxContext,
  request: SandboxRequest,
  allowance: SandboxAllowance,
) {
  const home = absoluteOrUndefined(context.hostEnv['HOME']);
  // The full tier writes only the workspace root; `project` adds its extra roots.
  const writableRoots = context.fsScope === 'project' ? context.roots : context.roots.slice(0, 1);
  const scans: WorkspaceScan[] = writableRoots.map((root) => scanWorkspace(root, context.floor));
  const readWritePaths = allowance.readWritePaths ?? [];
  for (const extra of readWritePaths) scans.push(scanWorkspace(extra, context.floor));
  const repositories: SandboxRepository[] = [];
  const protectedNames: { path: string; kind: 'file' | 'directory' }[] = [];
  const visibleWritable = [...writableRoots, ...readWritePaths];
  const insideWritable = (target: string): boolean =>
    visibleWritable.some((root) => target === root || target.startsWith(`${root}/`));
  if (insideWritable(context.floor.configFile)) {
    protectedNames.push({ path: context.floor.configFile, kind: 'file' });
  }
  const gitDirs = new Set(scans.flatMap((scan) => scan.gitDirs).filter(insideWritable));
  for (const gitDir of gitDirs) {
    protectedNames.push(
      { path: path.join(gitDir, 'hooks'), kind: 'directory' },
      { path: path.join(gitDir, 'config'), kind: 'file' },
    );
  }
  const stubs = ensureProtectedNames(protectedNames);
  try {
    for (const gitDir of gitDirs) {
      repositories.push({
        gitDir,
        filteredConfig: await filteredConfigFile(context, path.join(gitDir, 'config')),
        frozen: [path.join(gitDir, 'hooks'), ...worktreeConfigs(gitDir)].filter(exists),
      });
    }
    const configFrozen =
      exists(context.floor.configFile) && insideWritable(context.floor.configFile);
    const extraReadOnly = configFrozen ? [context.floor.configFile] : [];
    // Only where the env already carries git's command-line config (the process arm's children):
    // HOME is empty inside, so git_commit needs the host user's identity passed explicitly.
    const configCount = request.env['GIT_CONFIG_COUNT'];
    const readOnlyPaths = (allowance.readOnlyPaths ?? []).filter(exists);
    const prefixes = executablePrefixes({
      file: request.file,
      searchPath: request.env['PATH'] ?? '',
      home,
      roots: context.roots,
    });
    const identityEnv =
      configCount === undefined
        ? { entries: {}, count: 0 }
        : identityConfigEnv(await readHostGitIdentity(context.hostEnv), Number(configCount));
    return {
      stubs,
      identityEnv,
      args: {
        tier: context.fsScope,
        writableRoots,
        readOnlyPaths,
        readWritePaths,
        executablePrefixes: prefixes,
        home,
        homeSecrets: homeSecretsShown(context.fsScope, home, [
          ...prefixes,
          ...readOnlyPaths,
          ...readWritePaths,
        ]),
        system: systemView(),
        scans: [
          ...scans,
          ...readOnlyPaths.map((extra) => readOnlyScan(extra, context.floor)),
          { masked: [], readOnly: extraReadOnly, gitDirs: [] },
        ],
        repositories,
        // The state dir is hidden where it would show: under a root the scan masks it already,
        // and under an empty HOME it is not there at all.
        hidden:
          context.fsScope === 'full' ||
          [...prefixes, ...readOnlyPaths].some((visible) =>
            isWithinPath(context.floor.stateDir, visible),
          )
            ? [context.floor.stateDir].filter(exists)
            : [],
        emptyFile: emptyFile(context),
      },
    };
  } catch (error) {
    stubs.release();
    throw error;
  }
}

function sandboxEnv(
  env: Readonly<Record<string, string>>,
  context: SandboxContext,
  network: boolean,
  identity: { readonly entries: Readonly<Record<string, string>>; readonly count: number },
): Record<string, string> {
  const result: Record<string, string> = { ...env, ...identity.entries };
  if (identity.count > 0) result['GIT_CONFIG_COUNT'] = String(identity.count);
  // The host's TMPDIR is not inside; the private /tmp is.
  if (result['TMPDIR'] !== undefined) result['TMPDIR'] = '/tmp';
  if (absoluteOrUndefined(context.hostEnv['HOME']) === undefined) result['HOME'] = '/tmp';
  if (network) Object.assign(result, proxyEnv(`http://127.0.0.1:${SANDBOX_PROXY_PORT}`));
  return result;
}

/** Every spelling HTTP clients read a proxy from (curl, npm, yarn, pip, git, Node ≥ 24). */
export function proxyEnv(url: string): Record<string, string> {
  const local = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    NO_PROXY: local,
    no_proxy: local,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    YARN_HTTP_PROXY: url,
    YARN_HTTPS_PROXY: url,
    PIP_PROXY: url,
    NODE_USE_ENV_PROXY: '1',
  };
}

let privateDir: string | undefined;
const madeDirectories = new Set<string>();
const seccompFiles = new Map<string, string>();

// The compiled program, written once per arch and content: bwrap reads it from a descriptor.
function seccompFile(context: SandboxContext, arch: SeccompArch): string {
  const directory = sandboxDir(context, 'seccomp');
  const key = `${directory}\0${arch}`;
  let file = seccompFiles.get(key);
  if (file === undefined) {
    const program = buildSeccompFilter(arch);
    const digest = createHash('sha256').update(program).digest('hex').slice(0, 16);
    file = path.join(directory, `${arch}-${digest}.bpf`);
    if (!exists(file)) writeAtomically(file, program, 0o444);
    seccompFiles.set(key, file);
  }
  return file;
}

function writeAtomically(file: string, content: string | Uint8Array, mode: number): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(temporary, content, { mode });
  renameSync(temporary, file);
}

// Without a state dir: one directory per user under the system temp dir, trusted only if it is
// ours and private (another user could have made it first), else a fresh one.
function privateBase(): string {
  if (privateDir !== undefined) return privateDir;
  const shared = path.join(tmpdir(), `toolhost-sandbox-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(shared, { mode: 0o700 });
  } catch {
    // Exists already: checked below.
  }
  try {
    const info = lstatSync(shared);
    const ours = info.isDirectory() && info.uid === process.getuid?.() && (info.mode & 0o077) === 0;
    privateDir = ours ? shared : mkdtempSync(path.join(tmpdir(), 'toolhost-sandbox-'));
  } catch {
    privateDir = mkdtempSync(path.join(tmpdir(), 'toolhost-sandbox-'));
  }
  return privateDir;
}

// Content-addressed, so concurrent spawns and repeated calls share one file per distinct config.
async function filteredConfigFile(context: SandboxContext, configFile: string): Promise<string> {
  let text = '';
  try {
    const filtered = await filterGitConfig(configFile);
    text = filtered.text;
  } catch {
    // Fail closed: a config git cannot read shows nothing from it inside.
    text = '';
  }
  const directory = sandboxDir(context, 'git');
  const file = path.join(directory, `${createHash('sha256').update(text).digest('hex')}.config`);
  if (!exists(file)) writeAtomically(file, text, 0o644);
  return file;
}

function sandboxDir(context: SandboxContext, name: string): string {
  const base =
    context.stateDir === undefined ? privateBase() : path.join(context.stateDir, 'sandbox');
  const directory = path.join(base, name);
  if (!madeDirectories.has(directory)) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    madeDirectories.add(directory);
  }
  return directory;
}

// Shown in place of every masked file: a regular file that reads as empty.
function emptyFile(context: SandboxContext): string {
  const file = path.join(sandboxDir(context, 'masks'), 'empty');
  if (!exists(file)) writeFileSync(file, '', { mode: 0o444 });
  return file;
}

function worktreeConfigs(gitDir: string): string[] {
  const found = [path.join(gitDir, 'config.worktree')];
  try {
    for (const name of readdirSync(path.join(gitDir, 'worktrees'))) {
      found.push(path.join(gitDir, 'worktrees', name, 'config.worktree'));
    }
  } catch {
    // No linked worktrees.
  }
  return found;
}

// A declared read-only path is judged by the read floor too: its secrets are masked, and a
// repository in it shows no config (it is not filtered: nothing there is git's to write).
function readOnlyScan(extra: string, floor: FloorContext): WorkspaceScan {
  const scan = scanWorkspace(extra, floor);
  const configs = scan.gitDirs
    .map((gitDir) => path.join(gitDir, 'config'))
    .filter(exists)
    .map((config): MaskedPath => ({ path: config, kind: 'file' }));
  return { masked: [...scan.masked, ...configs], readOnly: [], gitDirs: [] };
}

// Only where part of the home is shown (the full tier, a prefix or a declared path under it):
// otherwise the home is an empty tmpfs and there is nothing to look up.
function homeSecretsShown(
  tier: FsScopeTier,
  home: string | undefined,
  shown: readonly string[],
): MaskedPath[] {
  if (home === undefined) return [];
  const partlyShown = shown.some((visible) => visible === home || visible.startsWith(`${home}/`));
  return tier === 'full' || partlyShown ? existingSecrets(home) : [];
}

function existingSecrets(home: string): MaskedPath[] {
  const found: MaskedPath[] = [];
  for (const secret of HOME_SECRETS) {
    const full = path.join(home, secret);
    try {
      const info = lstatSync(full);
      if (info.isDirectory()) found.push({ path: full, kind: 'directory' });
      else if (info.isFile()) found.push({ path: full, kind: 'file' });
    } catch {
      // Not present.
    }
  }
  return found;
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

function isWithinPath(target: string, base: string): boolean {
  return target === base || target.startsWith(`${base}/`);
}

function exists(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

function absoluteOrUndefined(value: string | undefined): string | undefined {
  return value !== undefined && path.isAbsolute(value) && value !== '/' ? value : undefined;
}
