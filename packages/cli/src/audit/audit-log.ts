import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { CliUsageError } from '../cli-error.js';

/** The events the audit log records. */
export type AuditEventType =
  'tool_call' | 'approval_requested' | 'approval_decided' | 'tool_result';

/** An append-only JSON-lines audit log. */
export interface AuditLog {
  /** Appends one line `{ ts, runId, event, ...payload }` and flushes it to disk. */
  write(event: AuditEventType, payload: Readonly<Record<string, unknown>>): void;
  close(): void;
}

/** Options of `openAuditLog`. */
export interface AuditLogOptions {
  readonly file: string;
  readonly runId: string;
  /**
   * Applied to every key and string leaf before the line is serialised (a leaf with its scrubbed
   * key, for shapes that span both): a second line of defence for secrets.
   */
  readonly scrub?: (text: string, key?: string) => string;
  readonly now?: () => Date;
}

/**
 * Opens `file` for appending (never truncating) with owner-only permissions. Each line is written
 * with one `write(2)` on an `O_APPEND` descriptor and fsynced, so a crash loses at most the line
 * being written and concurrent writers never interleave inside a line.
 */
export function openAuditLog(options: AuditLogOptions): AuditLog {
  const { runId, scrub = (text) => text, now = () => new Date() } = options;
  let fd: number;
  try {
    fd = openSync(options.file, 'a', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unopenable';
    throw new CliUsageError(`--audit-log: cannot open the audit log (${code})`);
  }
  let open = true;
  return {
    write(event, payload) {
      if (!open) return;
      const record = { ts: now().toISOString(), runId, event, ...scrubLeaves(payload, scrub) };
      writeSync(fd, `${JSON.stringify(record)}\n`);
      fsyncSync(fd);
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

// Scrubbed as data, not as the serialised line: a `\n` JSON writes before a token would glue
// the letter `n` to it, and a key is as free to hold a secret as a value.
function scrubLeaves(
  value: Readonly<Record<string, unknown>>,
  scrub: (text: string, key?: string) => string,
): Record<string, unknown> {
  const plain: unknown = JSON.parse(JSON.stringify(value));
  return scrubValue(plain, undefined, scrub) as Record<string, unknown>;
}

function scrubValue(
  value: unknown,
  key: string | undefined,
  scrub: (text: string, key?: string) => string,
): unknown {
  if (typeof value === 'string') return key === undefined ? scrub(value) : scrub(value, key);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, undefined, scrub));
  const scrubbed: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const shown = scrub(name);
    // Defined, not assigned: a `__proto__` key stays data.
    Object.defineProperty(scrubbed, shown, {
      value: scrubValue(item, shown, scrub),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return scrubbed;
}
