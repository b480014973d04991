import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { release, version } from 'node:os';
import path from 'node:path';
import { ISOLATION_ARGS } from './build-sandbox-args.js';
import { systemView } from './system-view.js';
import { buildSeccompFilter, seccompArchFor, type SeccompArch } from './seccomp-filter.js';

/** Where bubblewrap is looked for: fixed system directories, never the caller's PATH. */
export const BWRAP_CANDIDATES: readonly string[] = ['/usr/bin/bwrap', '/bin/bwrap'];

/** The verdict of one probe of bubblewrap with the arguments every sandboxed spawn uses. */
export type SandboxProbe =
  | {
      readonly available: true;
      readonly bwrap: string;
      /** `bubblewrap 0.8.0`, as the binary prints it. */
      readonly version: string;
      /** Set when a seccomp filter is generated for this CPU (x64, arm64). */
      readonly seccompArch?: SeccompArch;
    }
  | {
      readonly available: false;
      /** Why, for `doctor`: a fixed phrase, never a path. */
      readonly why: 'bwrap_not_found' | 'bwrap_refused' | 'not_linux';
    };

/** How `probeSandbox` looks; the defaults are what a host uses. */
export interface ProbeSandboxOptions {
  /** A specific bwrap binary (tests point it at a missing file); default: the fixed candidates. */
  readonly bwrapPath?: string;
  /** Where the verdict is cached across processes (the host's state dir); absent ⇒ memory only. */
  readonly cacheDir?: string;
}

// Bumped whenever the probe's arguments change, so an old cached "works" is not trusted.
const PROBE_FORMAT = 3;

/**
 * Probes bubblewrap once per host with the real arguments (user, PID and network namespaces,
 * `--disable-userns`, `--cap-drop ALL`, the seccomp filter): an installed binary the kernel or
 * AppArmor refuses counts as unavailable. The verdict is cached in memory and, keyed by the bwrap
 * binary and the kernel, in `cacheDir`, so a CLI call pays one stat, not a probe spawn.
 */
export function probeSandbox(options: ProbeSandboxOptions = {}): Promise<SandboxProbe> {
  const memoKey = `${options.bwrapPath ?? ''}\0${options.cacheDir ?? ''}`;
  let probed = memo.get(memoKey);
  if (probed === undefined) {
    probed = probeUncached(options);
    memo.set(memoKey, probed);
  }
  return probed;
}

const memo = new Map<string, Promise<SandboxProbe>>();

async function probeUncached(options: ProbeSandboxOptions): Promise<SandboxProbe> {
  if (process.platform !== 'linux') return { available: false, why: 'not_linux' };
  const bwrap = await findBwrap(options.bwrapPath);
  if (bwrap === undefined) return { available: false, why: 'bwrap_not_found' };
  const seccompArch = seccompArchFor(process.arch);
  const key = await cacheKey(bwrap);
  const cacheFile =
    options.cacheDir === undefined ? undefined : path.join(options.cacheDir, 'sandbox-probe.json');
  const cached = cacheFile === undefined ? undefined : await readCached(cacheFile, key);
  if (cached !== undefined) return cached;
  const version = await runBwrap(bwrap, ['--version'], undefined);
  const works =
    version.code === 0 &&
    (
      await runBwrap(
        bwrap,
        minimalSandboxArgs('/usr/bin/true', seccompArch === undefined ? undefined : 3),
        seccompArch,
      )
    ).code === 0;
  const verdict: SandboxProbe = works
    ? {
        available: true,
        bwrap,
        version: version.stdout.trim().slice(0, 64) || 'bubblewrap',
        ...(seccompArch === undefined ? {} : { seccompArch }),
      }
    : { available: false, why: 'bwrap_refused' };
  // Only "works" is remembered: a refusal is probed again next time (bubblewrap installed since).
  if (cacheFile !== undefined && verdict.available) await writeCached(cacheFile, key, verdict);
  return verdict;
}

async function findBwrap(explicit: string | undefined): Promise<string | undefined> {
  for (const candidate of explicit === undefined ? BWRAP_CANDIDATES : [explicit]) {
    const found = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (found) return candidate;
  }
  return undefined;
}

/**
 * The isolation of a real spawn (namespaces, privilege drops, the system directories, fresh
 * /proc, /dev and /tmp) around `command`, without the workspace: what the probe runs.
 */
export function minimalSandboxArgs(command: string, seccompFd?: number): string[] {
  const { links, directories } = systemView();
  return [
    ...ISOLATION_ARGS,
    '--clearenv',
    '--ro-bind',
    '/usr',
    '/usr',
    ...links.flatMap((link) => ['--symlink', link.target, link.path]),
    ...directories.flatMap((directory) => ['--ro-bind', directory, directory]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    ...(seccompFd === undefined ? [] : ['--seccomp', String(seccompFd)]),
    '--',
    command,
  ];
}

function runBwrap(
  bwrap: string,
  args: readonly string[],
  seccompArch: SeccompArch | undefined,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(bwrap, args, {
      stdio: ['ignore', 'pipe', 'ignore', seccompArch === undefined ? 'ignore' : 'pipe'],
      env: {},
      timeout: 10_000,
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (stdout.length < 1024) stdout += chunk;
    });
    const filterPipe = child.stdio[3];
    if (seccompArch !== undefined && filterPipe != null && 'end' in filterPipe) {
      filterPipe.on('error', () => undefined);
      filterPipe.end(buildSeccompFilter(seccompArch));
    }
    child.once('error', () => resolve({ code: null, stdout: '' }));
    child.once('close', (code) => resolve({ code, stdout }));
  });
}

async function cacheKey(bwrap: string): Promise<string> {
  const info = await stat(bwrap, { bigint: true });
  return createHash('sha256')
    .update(
      JSON.stringify([
        PROBE_FORMAT,
        bwrap,
        String(info.ino),
        String(info.size),
        String(info.mtimeNs),
        release(),
        version(),
        process.getuid?.() ?? -1,
        process.arch,
      ]),
    )
    .digest('hex');
}

async function readCached(file: string, key: string): Promise<SandboxProbe | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as {
      key?: unknown;
      verdict?: SandboxProbe;
    };
    // Only a positive verdict is trusted from disk: a refusal is re-probed, so installing
    // bubblewrap (or fixing AppArmor) takes effect on the next call.
    return parsed.key === key && parsed.verdict?.available === true ? parsed.verdict : undefined;
  } catch {
    return undefined;
  }
}

async function writeCached(file: string, key: string, verdict: SandboxProbe): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ key, verdict }), { mode: 0o600 });
    await rename(temporary, file);
  } catch {
    // A read-only state dir only costs the next process one probe.
  }
}
