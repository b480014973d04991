import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { APPROVAL_MODES, FS_SCOPES, SANDBOX_MODES } from '../config/config-schema.js';
import { loadConfig } from '../config/load-config.js';
import {
  defaultStateDir,
  resolveSettings,
  type EffectiveSettings,
  type SettingsFlags,
} from '../config/resolve-settings.js';
import type { CliIo } from './cli-io.js';

/** The option values every policy-aware command accepts. */
export interface PolicyOptionValues {
  readonly root?: string;
  readonly config?: string;
  readonly tools?: string[];
  readonly fsScope?: string;
  readonly extraRoot?: string[];
  readonly allowCommand?: string[];
  readonly allowCommandGlob?: string[];
  readonly allowDomain?: string[];
  readonly allowMcpTool?: string[];
  readonly mode?: string;
  readonly maxBytes?: number;
  readonly maxLines?: number;
  readonly stateDir?: string;
  readonly sandbox?: string;
  readonly sandboxAllowDomain?: string[];
  readonly json?: boolean;
  /** Only on the commands that dispatch (`call`, `serve`). */
  readonly auditLog?: string;
}

/** Adds the config/policy flags; each overrides the config file's value (lists replace). */
export function addPolicyOptions(command: Command): Command {
  return command
    .option('--root <dir>', 'workspace root (default: the current directory)')
    .option('--config <file>', 'config file (default: <root>/toolhost.config.json if present)')
    .option('--tools <ids>', 'granted tool ids, comma-separated (replaces "tools")', splitList)
    .addOption(new Option('--fs-scope <tier>', 'filesystem tier').choices(FS_SCOPES))
    .option('--extra-root <dir>', 'extra root for the project tier (repeatable)', collect)
    .option('--allow-command <command>', 'exact allowed command string (repeatable)', collect)
    .option('--allow-command-glob <glob>', 'allowed command glob (repeatable)', collect)
    .option('--allow-domain <host>', 'allowed http_request host (repeatable)', collect)
    .option(
      '--allow-mcp-tool <server/tool>',
      'a tool mcp_call may reach besides the granted mcp_ tools; server/* for all of a server (repeatable)',
      collect,
    )
    .addOption(new Option('--mode <mode>', 'approval mode').choices(APPROVAL_MODES))
    .option('--max-bytes <n>', 'model-facing result ceiling in bytes', positiveInt)
    .option('--max-lines <n>', 'model-facing result ceiling in lines', positiveInt)
    .option('--state-dir <dir>', 'state directory (spills, media store)')
    .addOption(
      new Option(
        '--sandbox <mode>',
        'process sandbox of every command and MCP stdio server (default: required on Linux)',
      ).choices(SANDBOX_MODES),
    )
    .option(
      '--sandbox-allow-domain <host>',
      'host a sandboxed command may reach over HTTPS (repeatable; replaces process.network)',
      collect,
    )
    .option('--json', 'machine-readable output on stdout');
}

/**
 * Loads the config and applies the flags; throws `CliUsageError` on any problem. `defaultsOnly`
 * (doctor, facing an unapproved workspace config) reads no file: defaults and flags only.
 */
export function settingsFromOptions(
  options: PolicyOptionValues,
  io: CliIo,
  source: 'config' | 'defaultsOnly' = 'config',
): EffectiveSettings {
  const root = path.resolve(io.cwd, options.root ?? '.');
  // The approval record of a workspace config lives in the state dir the command will use.
  const stateDir = stateDirFromOptions(options, io);
  // Errors name the file as the user typed it, never the resolved path.
  const loaded =
    source === 'defaultsOnly'
      ? { config: {} }
      : loadConfig({
          root,
          stateDir,
          ...(options.config === undefined
            ? {}
            : { explicitPath: path.resolve(io.cwd, options.config), label: options.config }),
        });
  const flags: SettingsFlags = {
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.fsScope === undefined ? {} : { fsScope: options.fsScope }),
    ...(options.extraRoot === undefined
      ? {}
      : { extraRoots: options.extraRoot.map((entry) => path.resolve(io.cwd, entry)) }),
    ...(options.allowCommand === undefined ? {} : { allowCommands: options.allowCommand }),
    ...(options.allowCommandGlob === undefined
      ? {}
      : { allowCommandGlobs: options.allowCommandGlob }),
    ...(options.allowDomain === undefined ? {} : { allowDomains: options.allowDomain }),
    ...(options.allowMcpTool === undefined ? {} : { allowMcpTools: options.allowMcpTool }),
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    ...(options.maxLines === undefined ? {} : { maxLines: options.maxLines }),
    ...(options.stateDir === undefined ? {} : { stateDir: path.resolve(io.cwd, options.stateDir) }),
    ...(options.auditLog === undefined ? {} : { auditLog: path.resolve(io.cwd, options.auditLog) }),
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    ...(options.sandboxAllowDomain === undefined
      ? {}
      : { sandboxAllowDomains: options.sandboxAllowDomain }),
  };
  return resolveSettings(root, loaded, flags);
}

/** The state dir `--state-dir` names, else the default one (absolute either way). */
export function stateDirFromOptions(options: { readonly stateDir?: string }, io: CliIo): string {
  return options.stateDir === undefined
    ? defaultStateDir()
    : path.resolve(io.cwd, options.stateDir);
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

function positiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError('expected a positive integer');
  }
  return parsed;
}
