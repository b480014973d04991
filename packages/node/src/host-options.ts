import { randomUUID } from 'node:crypto';
import { mkdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { FsScopeTier } from '@toolhost/core/policy';
import { resolveEgressOptions, type EgressOptions } from './egress/resolve-egress-options.js';
import type { McpArmOptions } from './mcp/mcp-arm-options.js';
import type { OsArmOptions } from './os/create-os-arm.js';
import type { SpillQuotaOptions } from './output-store/spill-quota.js';
import type { NodeProcessOptions } from './process/create-host-process-arm.js';

/**
 * Options of `createNodeToolHost`. Each arm owns its fields; an engineer adding an arm adds its
 * sub-object here (`process?`, `egress?`, `os?`, `mcp?`) and normalises it in `resolveHostOptions`.
 */
export interface NodeToolHostOptions {
  /** The workspace root: an existing directory. */
  readonly root: string;
  /** `sandboxed` (default): the root, plus the run's spill directory read-only. */
  readonly fsScope?: FsScopeTier;
  /** Absolute directories the `project` tier adds to the root. */
  readonly extraRoots?: readonly string[];
  /** Host state (spill, media). Default `~/.toolhost/state`; always on the read and write floor. */
  readonly stateDir?: string;
  /** No write arm: `write_file` then fails with `ToolUnavailableError`. */
  readonly readOnly?: boolean;
  /** Names the run's spill directory; default a random UUID. */
  readonly runId?: string;
  /** What one call (default 256 MiB) and the run (default 1 GiB) may spill. */
  readonly spillQuota?: SpillQuotaOptions;
  /** The project config file, on the write floor. Default `<root>/toolhost.config.json`. */
  readonly configFile?: string;
  /** MCP servers to connect; their discovered tools come back as `mcpTools`. */
  readonly mcp?: McpArmOptions;
  /** Outbound HTTPS (`http_request`, `web_search`); absent ⇒ no egress arm. `{}` = defaults. */
  readonly egress?: EgressOptions;
  /** Process spawn (`run_command`, `git_*`); absent ⇒ no process arm. `{}` = defaults. */
  readonly process?: NodeProcessOptions;
  /** Clipboard and notifications; absent ⇒ no os arm. `{}` = defaults. */
  readonly os?: OsArmOptions;
}

/** Options after `resolveHostOptions`: every path absolute and real, every default filled. */
export interface ResolvedHostOptions {
  readonly root: string;
  readonly fsScope: FsScopeTier;
  readonly extraRoots: readonly string[];
  readonly stateDir: string;
  readonly readOnly: boolean;
  readonly runId: string;
  /** Checked by `createOutputStore`. */
  readonly spillQuota?: SpillQuotaOptions;
  readonly configFile: string;
  /** Checked by `createMcpArm` itself, where its servers are connected. */
  readonly mcp?: McpArmOptions;
  /** Validated here (a bad range or budget fails at creation); filled by `createEgressArm`. */
  readonly egress?: EgressOptions;
  /** Checked by `createProcessArm` when the host is built. */
  readonly process?: NodeProcessOptions;
  /** Checked by `createOsArm` when the host is built. */
  readonly os?: OsArmOptions;
}

const TIERS: readonly FsScopeTier[] = ['sandboxed', 'project', 'full'];
// The run id names a directory, so it may never carry a separator or `..`.
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Fills defaults and rejects bad options at creation, not on first use. */
export async function resolveHostOptions(
  options: NodeToolHostOptions,
): Promise<ResolvedHostOptions> {
  const {
    root,
    fsScope = 'sandboxed',
    extraRoots = [],
    stateDir = path.join(homedir(), '.toolhost', 'state'),
    readOnly = false,
    runId = randomUUID(),
  } = options;
  if (typeof root !== 'string' || root === '') throw new TypeError('toolhost: root is required');
  if (!TIERS.includes(fsScope))
    throw new TypeError('toolhost: fsScope must be sandboxed, project or full');
  if (extraRoots.length > 0 && fsScope !== 'project')
    throw new TypeError('toolhost: extraRoots requires fsScope "project"');
  if (!extraRoots.every((extra) => typeof extra === 'string' && path.isAbsolute(extra)))
    throw new TypeError('toolhost: every extraRoots entry must be an absolute path');
  if (typeof stateDir !== 'string' || !path.isAbsolute(stateDir))
    throw new TypeError('toolhost: stateDir must be an absolute path');
  if (!RUN_ID.test(runId)) throw new TypeError('toolhost: runId must match [A-Za-z0-9_-]{1,64}');

  if (options.egress !== undefined) resolveEgressOptions(options.egress);
  const realRoot = await realDirectory(root, 'root');
  const realExtras = await Promise.all(
    extraRoots.map((extra) => realDirectory(extra, 'extraRoots entry')),
  );
  // Owner-only: spill files and media objects hold tool output.
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const realState = await realDirectory(stateDir, 'stateDir');
  return {
    root: realRoot,
    fsScope,
    extraRoots: realExtras,
    stateDir: realState,
    readOnly,
    runId,
    configFile: await realFilePath(
      path.resolve(realRoot, options.configFile ?? 'toolhost.config.json'),
    ),
    ...(options.spillQuota === undefined ? {} : { spillQuota: options.spillQuota }),
    ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
    ...(options.egress === undefined ? {} : { egress: options.egress }),
    ...(options.process === undefined ? {} : { process: options.process }),
    ...(options.os === undefined ? {} : { os: options.os }),
  };
}

// Symlinks in a configured root are resolved once here, so every later containment check
// compares against the real path the kernel reports for an opened descriptor.
async function realDirectory(candidate: string, label: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(path.resolve(candidate));
  } catch (error) {
    throw new TypeError(`toolhost: ${label} does not exist`, { cause: error });
  }
  if (!(await stat(real)).isDirectory())
    throw new TypeError(`toolhost: ${label} must be a directory`);
  return real;
}

// The config file may not exist yet; its directory's real path still names it on the floor.
async function realFilePath(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    try {
      return path.join(await realpath(path.dirname(file)), path.basename(file));
    } catch {
      return file;
    }
  }
}
