import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { CliUsageError } from '../cli-error.js';
import { toolhostConfigSchema, type ToolhostConfig } from './config-schema.js';
import { parseJsonWithPosition } from './parse-json-with-position.js';

/** The default config file name, looked up in the root. */
export const CONFIG_FILE_NAME = 'toolhost.config.json';

/** A loaded config and the absolute path it came from (absent: no file, defaults apply). */
export interface LoadedConfig {
  readonly config: ToolhostConfig;
  readonly file?: string;
}

/**
 * Reads and validates the config: `explicitPath` must exist; otherwise `<root>/toolhost.config.json`
 * is used when present. Any problem throws `CliUsageError` naming the field, and nothing runs.
 */
export function loadConfig(
  root: string,
  explicitPath?: string,
  label: string = explicitPath ?? CONFIG_FILE_NAME,
): LoadedConfig {
  const file = path.resolve(root, explicitPath ?? CONFIG_FILE_NAME);
  if (explicitPath === undefined && !existsSync(file)) return { config: {} };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CliUsageError(`${label}: cannot read the config file (${code})`);
  }
  return { config: parseConfig(text, label), file };
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
