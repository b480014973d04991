import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolPolicy, ToolResultLimits } from '@toolhost/core';
import {
  defaultSandboxMode,
  type ProcessBudgets,
  type SandboxAllowance,
  type SandboxMode,
} from '@toolhost/node/host';
import { CliUsageError } from '../cli-error.js';
import {
  APPROVAL_MODES,
  FS_SCOPES,
  SANDBOX_MODES,
  type ApprovalMode,
  type CredentialSource,
  type McpServerConfig,
  type ToolhostConfig,
} from './config-schema.js';
import { DEFAULT_GRANT } from './default-grant.js';
import { CONFIG_FILE_NAME, type LoadedConfig } from './load-config.js';

export { DEFAULT_GRANT } from './default-grant.js';

/** The command-line overrides; a list flag replaces the file's list, it never merges. */
export interface SettingsFlags {
  readonly tools?: readonly string[];
  readonly fsScope?: string;
  readonly extraRoots?: readonly string[];
  readonly allowCommands?: readonly string[];
  readonly allowCommandGlobs?: readonly string[];
  readonly allowDomains?: readonly string[];
  readonly allowMcpTools?: readonly string[];
  readonly mode?: string;
  readonly maxBytes?: number;
  readonly maxLines?: number;
  readonly stateDir?: string;
  /** Absolute path of the audit log to append to (call and serve only). */
  readonly auditLog?: string;
  readonly sandbox?: string;
  /** Replaces `process.network.allowedDomains`; an empty list means no network. */
  readonly sandboxAllowDomains?: readonly string[];
}

/** Everything a command runs under: the file's values with the flags on top, all paths absolute. */
export interface EffectiveSettings {
  readonly root: string;
  /** The config file on the host's write floor: the loaded one, else `<root>/toolhost.config.json`. */
  readonly configFile: string;
  /** Whether a config file was actually read (false: defaults and flags only). */
  readonly configLoaded: boolean;
  readonly grant: readonly string[];
  /** Who named the grant: `--tools`, the config's `tools`, or `DEFAULT_GRANT`. */
  readonly grantSource: 'flag' | 'config' | 'default';
  readonly fsScope: (typeof FS_SCOPES)[number];
  readonly extraRoots: readonly string[];
  readonly toolPolicy: Required<ToolPolicy>;
  readonly mode: ApprovalMode;
  readonly limits: ToolResultLimits;
  /** OS-enforced budgets of each spawned command; empty = none configured. */
  readonly budgets: ProcessBudgets;
  /** The process sandbox of every spawned command and, unless a server says otherwise, MCP. */
  readonly sandbox: SandboxMode;
  /** Who chose `sandbox`: `default` is the platform's (`required` on Linux, `off` elsewhere). */
  readonly sandboxSource: 'flag' | 'config' | 'default';
  /** What a sandboxed command may reach beyond the workspace. */
  readonly sandboxAllowance: SandboxAllowance;
  readonly toolConfig: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
  readonly credentials: Readonly<Record<string, CredentialSource>>;
  readonly stateDir: string;
  /** Absolute path of the JSON-lines audit log, when one was asked for. */
  readonly auditLog?: string;
}

/** Merges flags over the loaded file once; later code never re-checks these values. */
export function resolveSettings(
  requestedRoot: string,
  loaded: LoadedConfig,
  flags: SettingsFlags,
): EffectiveSettings {
  // The real root, as the host will see it, so protected-path checks compare like with like.
  const root = realOrSelf(requestedRoot);
  const config: ToolhostConfig = loaded.config;
  const base = loaded.file === undefined ? root : path.dirname(loaded.file);
  const fsScope = pickEnum(flags.fsScope, FS_SCOPES, '--fs-scope') ?? config.fsScope ?? 'sandboxed';
  const mode = pickEnum(flags.mode, APPROVAL_MODES, '--mode') ?? config.mode ?? 'ask';
  const extraRoots = (flags.extraRoots ?? config.extraRoots ?? []).map((entry) =>
    path.resolve(base, entry),
  );
  const sandbox = sandboxOf(config, flags);
  return {
    root,
    // Even before `init`, the default file name is on the floor so no tool can create it.
    configFile: loaded.file ?? path.join(root, CONFIG_FILE_NAME),
    configLoaded: loaded.file !== undefined,
    grant: [...new Set(flags.tools ?? config.tools ?? DEFAULT_GRANT)],
    grantSource:
      flags.tools !== undefined ? 'flag' : config.tools !== undefined ? 'config' : 'default',
    fsScope,
    extraRoots,
    toolPolicy: {
      allowedCommands: [...(flags.allowCommands ?? config.allowedCommands ?? [])],
      allowedCommandGlobs: [...(flags.allowCommandGlobs ?? config.allowedCommandGlobs ?? [])],
      allowedDomains: [...(flags.allowDomains ?? config.allowedDomains ?? [])],
      allowedMcpTools: [...(flags.allowMcpTools ?? config.allowedMcpTools ?? [])],
      // The engine's unsandboxed argument floor keys on the mode the process arm will enforce.
      processSandbox: sandbox.sandbox,
    },
    mode,
    limits: {
      maxBytes: positive(flags.maxBytes, '--max-bytes') ?? config.limits?.maxBytes ?? 51_200,
      maxLines: positive(flags.maxLines, '--max-lines') ?? config.limits?.maxLines ?? 2_000,
    },
    budgets: budgetsOf(config),
    ...sandbox,
    toolConfig: config.toolConfig ?? {},
    mcpServers: config.mcpServers ?? {},
    credentials: config.credentials ?? {},
    stateDir: path.resolve(flags.stateDir ?? defaultStateDir()),
    ...(flags.auditLog === undefined ? {} : { auditLog: path.resolve(flags.auditLog) }),
  };
}

// `limits.memoryBytes` predates the tree budgets and has always meant address space.
function budgetsOf(config: ToolhostConfig): ProcessBudgets {
  const limits = config.limits ?? {};
  const budgets: Record<string, number> = {};
  for (const [name, value] of [
    ['cpuSeconds', limits.cpuSeconds],
    ['addressSpaceBytes', limits.memoryBytes],
    ['openFiles', limits.openFiles],
    ['fileSizeBytes', limits.fileSizeBytes],
    ['memoryBytes', limits.treeMemoryBytes],
    ['pids', limits.pids],
  ] as const) {
    if (value !== undefined) budgets[name] = value;
  }
  return budgets;
}

function sandboxOf(
  config: ToolhostConfig,
  flags: SettingsFlags,
): Pick<EffectiveSettings, 'sandbox' | 'sandboxSource' | 'sandboxAllowance'> {
  const fromFlag = pickEnum(flags.sandbox, SANDBOX_MODES, '--sandbox');
  const fromConfig = config.process?.sandbox;
  if (flags.sandboxAllowDomains?.some((domain) => domain.trim() === '') === true) {
    throw new CliUsageError('--sandbox-allow-domain: expected a host name');
  }
  const domains = flags.sandboxAllowDomains ?? config.process?.network?.allowedDomains ?? [];
  const { readOnlyPaths, readWritePaths } = config.process ?? {};
  // The caps stay when a flag replaces the domains: they bound the host, not a destination.
  const { maxConnectionsPerSandbox, maxConnections } = config.process?.network ?? {};
  return {
    sandbox: fromFlag ?? fromConfig ?? defaultSandboxMode(),
    sandboxSource:
      fromFlag !== undefined ? 'flag' : fromConfig !== undefined ? 'config' : 'default',
    sandboxAllowance: {
      ...(domains.length === 0
        ? {}
        : {
            network: {
              allowedDomains: [...new Set(domains)],
              ...(maxConnectionsPerSandbox === undefined ? {} : { maxConnectionsPerSandbox }),
              ...(maxConnections === undefined ? {} : { maxConnections }),
            },
          }),
      ...(readOnlyPaths === undefined ? {} : { readOnlyPaths }),
      ...(readWritePaths === undefined ? {} : { readWritePaths }),
    },
  };
}

function realOrSelf(directory: string): string {
  try {
    return realpathSync(directory);
  } catch {
    return path.resolve(directory);
  }
}

/** Outside the workspace, so no fs tool can reach it through the root; the host's default. */
export function defaultStateDir(): string {
  return path.join(os.homedir(), '.toolhost', 'state');
}

function pickEnum<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CliUsageError(`${flag}: expected one of ${allowed.join(', ')}`);
}

function positive(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && value > 0) return value;
  throw new CliUsageError(`${flag}: expected a positive integer`);
}
