import { z } from 'zod';

/** Longest path a built-in accepts; longer is refused, never cut. */
export const MAX_PATH_LENGTH = 4096;
/** Longest file content `write_file` accepts (UTF-16 code units, about the 8 MiB read cap). */
export const MAX_CONTENT_LENGTH = 8 * 1024 * 1024;
/** Longest command or single argument `run_command` accepts. */
export const MAX_COMMAND_LENGTH = 4096;
/** Most arguments one command may carry. */
export const MAX_ARGUMENTS = 256;
/** Longest URL an egress tool accepts. */
export const MAX_URL_LENGTH = 8192;
/** Longest free-text field that is not file content (a commit message, a header value). */
export const MAX_TEXT_LENGTH = 65_536;
/** Longest short name (a server, tool, node id or header name). */
export const MAX_NAME_LENGTH = 256;

/** A non-empty, bounded path string. */
export function pathString(description: string): z.ZodString {
  return z.string().min(1).max(MAX_PATH_LENGTH).describe(description);
}

/** A bounded record: `z.record` alone cannot cap its entry count, and an unbounded map is a DoS. */
export function boundedRecord<V extends z.ZodType>(key: z.ZodString, value: V, maxEntries: number) {
  return z
    .record(key, value)
    .refine((record) => Object.keys(record).length <= maxEntries, { message: 'too_many_entries' });
}
