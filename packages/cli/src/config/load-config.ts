import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { CliUsageError } from '../cli-error.js';
import {
  configApprovalKey,
  hashConfigBytes,
  readConfigApproval,
  type ConfigApprovalStatus,
} from './config-approval.js';
import { ConfigNotApprovedError, type PendingConfigApproval } from './config-not-approved-error.js';
import { toolhostConfigSchema, type ToolhostConfig } from './config-schema.js';
import { parseJsonWithPosition } from './parse-json-with-position.js';

/** The default config file name, looked up in the root. */
export const CONFIG_FILE_NAME = 'toolhost.config.json';

/** A loaded config and the absolute path it came from (absent: no file, defaults apply). */
export interface LoadedConfig {
  readonly config: ToolhostConfig;
  readonly file?: string;
}

/** Where to look for the config and where approvals of a workspace config are recorded. */
export interface LoadConfigOptions {
  readonly root: string;
  /** The state dir: a workspace config loads only when its digest is recorded here. */
  readonly stateDir: string;
  /** A config the user named (`--config`): approved by being given, and it must exist. */
  readonly explicitPath?: string;
  /** How errors name the file: as the user typed it, never the resolved path. */
  readonly label?: string;
}

/** A workspace config read once: its parsed value and what the state dir says of its bytes. */
export interface WorkspaceConfig {
  readonly config: ToolhostConfig;
  readonly file: string;
  readonly status: ConfigApprovalStatus;
  readonly pending: PendingConfigApproval;
}

/**
 * Reads and validates the config: `explicitPath` must exist; otherwise `<root>/toolhost.config.json`
 * is used when present, and only if its exact bytes were approved (`toolhost config approve`,
 * `toolhost init`). Any problem throws `CliUsageError` naming the file, and nothing runs.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const { root, stateDir, explicitPath } = options;
  if (explicitPath !== undefined) {
    const label = options.label ?? explicitPath;
    const file = path.resolve(root, explicitPath);
    return { config: parseConfig(readConfigBytes(file, label).toString('utf8'), label), file };
  }
  const workspace = readWorkspaceConfig(root, stateDir);
  if (workspace === undefined) return { config: {} };
  // A tool that can extract an archive or apply a patch can replace this file; its MCP server
  // commands would then start on the next plain call. Only bytes a human approved are used.
  if (workspace.status !== 'approved') {
    throw new ConfigNotApprovedError(workspace.status, workspace.pending, CONFIG_FILE_NAME);
  }
  return { config: workspace.config, file: workspace.file };
}

/**
 * Reads `<root>/toolhost.config.json` once, validates it and looks up its approval; undefined when
 * there is no such file. The digest is of the very bytes parsed, so nothing can swap the file
 * between the check and the use.
 */
export function readWorkspaceConfig(root: string, stateDir: string): WorkspaceConfig | undefined {
  const file = path.resolve(root, CONFIG_FILE_NAME);
  if (!existsSync(file)) return undefined;
  const bytes = readConfigBytes(file, CONFIG_FILE_NAME);
  const text = bytes.toString('utf8');
  // Validation first: a broken file is reported as such, approved or not; parsing runs nothing.
  const config = parseConfig(text, CONFIG_FILE_NAME);
  const subject = { stateDir, key: configApprovalKey(file), sha256: hashConfigBytes(bytes) };
  return { config, file, status: readConfigApproval(subject), pending: { ...subject, text } };
}

/** Parses config text; errors name the line (bad JSON) or the field and problem (schema). */
export function parseConfig(text: string, label: string = CONFIG_FILE_NAME): ToolhostConfig {
  const raw = parseJsonWithPosition(text, label);
  const parsed = toolhostConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new CliUsageError(`${label}: ${formatConfigIssues(parsed.error)}`);
}

/** zod issues → `field: problem` lines; unknown keys are named, values never echoed. */
export function formatConfigIssues(error: z.ZodError): string {
  return formatIssues(error.issues, []).join('; ');
}

function formatIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[],
): string[] {
  return issues.flatMap((issue) => {
    const segments = [...prefix, ...issue.path];
    const base = formatPath(segments);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `unknown key "${joinPath(base, key)}"`);
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the branch that came closest, so `{ command, tpyo }` says "unknown key tpyo"
      // rather than a bare "matches no shape".
      const closest = issue.errors.reduce((best, branch) =>
        branch.length < best.length ? branch : best,
      );
      return formatIssues(closest, segments);
    }
    return [`field "${base || '(root)'}": ${issue.message}`];
  });
}

function formatPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>(
    (joined, segment) =>
      typeof segment === 'number' ? `${joined}[${segment}]` : joinPath(joined, String(segment)),
    '',
  );
}

function joinPath(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

// Opened non-blocking and checked to be a regular file: a planted FIFO or device must fail the
// load, not hang it or feed it without end.
function readConfigBytes(file: string, label: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw unreadable(error, label);
  }
  try {
    if (!fstatSync(fd).isFile()) {
      throw new CliUsageError(`${label}: cannot read the config file (not a regular file)`);
    }
    return readFileSync(fd);
  } catch (error) {
    throw error instanceof CliUsageError ? error : unreadable(error, label);
  } finally {
    closeSync(fd);
  }
}

function unreadable(error: unknown, label: string): CliUsageError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
  return new CliUsageError(`${label}: cannot read the config file (${code})`);
}
