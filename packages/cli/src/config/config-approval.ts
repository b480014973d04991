import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliUsageError } from '../cli-error.js';

/** What the state dir says about a workspace config's current bytes. */
export type ConfigApprovalStatus = 'approved' | 'changed' | 'unapproved';

/** One workspace config as read: where it is recorded and the digest of the bytes read. */
export interface ConfigApprovalSubject {
  readonly stateDir: string;
  /** The config's place: the real path of its directory plus its own name. */
  readonly key: string;
  /** SHA-256 (hex) of the exact bytes that were (or will be) parsed. */
  readonly sha256: string;
}

/** Sub-directory of the state dir holding one approval record per workspace config. */
export const CONFIG_APPROVALS_DIR = 'config-approvals';

/**
 * The approval key of a config file. The directory is resolved (so `/tmp/x` and `/private/tmp/x`
 * share one record) but the file's own name is not followed: a config swapped for a symlink to
 * some other approved config stays unapproved here, since the record is of this place.
 */
export function configApprovalKey(file: string): string {
  return path.join(realOrSelf(path.dirname(path.resolve(file))), path.basename(file));
}

/** SHA-256 of the config bytes, hex: the same bytes the loader parses, never a re-read. */
export function hashConfigBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads the record for `key`: approved only when it names these exact bytes. */
export function readConfigApproval(subject: ConfigApprovalSubject): ConfigApprovalStatus {
  let recorded: unknown;
  try {
    recorded = JSON.parse(readFileSync(recordFile(subject), 'utf8'));
  } catch {
    // Missing, unreadable or torn: unknown means not approved.
    return 'unapproved';
  }
  if (!isRecord(recorded) || recorded.key !== subject.key) return 'unapproved';
  return recorded.sha256 === subject.sha256 ? 'approved' : 'changed';
}

/** Records `sha256` as the approved content of `key` (owner-only, replaced atomically). */
export function recordConfigApproval(subject: ConfigApprovalSubject): void {
  const file = recordFile(subject);
  const temporary = `${file}.${process.pid}.tmp`;
  const record = { key: subject.key, sha256: subject.sha256, approvedAt: new Date().toISOString() };
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // A reader sees the old record or the new one, never half of either.
    writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? 'unwritable';
    throw new CliUsageError(`cannot record the config approval in the state dir (${code})`);
  }
}

// One file per config place, named by a digest of the key: no shared file to merge, and a root
// path of any length or character makes a valid file name.
function recordFile(subject: Pick<ConfigApprovalSubject, 'stateDir' | 'key'>): string {
  const name = createHash('sha256').update(subject.key).digest('hex');
  return path.join(subject.stateDir, CONFIG_APPROVALS_DIR, `${name}.json`);
}

function realOrSelf(directory: string): string {
  try {
    return realpathSync(directory);
  } catch {
    return directory;
  }
}

function isRecord(value: unknown): value is { key: unknown; sha256: unknown } {
  return typeof value === 'object' && value !== null;
}
