import type { AbortSignalLike } from './abort-signal-like.js';
import type { DurableMediaPart } from './tool-host.js';

// The filesystem arm's seam: its requests and results, as the host receives and returns them.

/** A `read_file` request as the host receives it (already validated and policy-checked). */
export interface FsReadRequest {
  readonly path: string;
  readonly glob?: boolean;
  /** 0-based first line to return. */
  readonly offset?: number;
  /** Maximum number of lines to return. */
  readonly limit?: number;
  /** The media scope a binary file's handle is stored under (see `ToolDispatchContext.mediaScope`). */
  readonly mediaScope?: string;
}

/** What a file read produced: text content, or a media handle for a binary file. */
export interface FileRead {
  /** UTF-8 text; empty when `media` is set. */
  readonly content: string;
  readonly mimeType: string;
  readonly sizeBytes: number;
  /** ISO 8601. */
  readonly lastModified: string;
  /** Set for a binary file: the bytes went to the media store. */
  readonly media?: DurableMediaPart;
  /** For a glob read: how many files matched and whether the match cap cut the list. */
  readonly matches?: { readonly count: number; readonly truncated: boolean };
  /** For a windowed read (`offset`/`limit`): the file's line count, when it was counted whole. */
  readonly totalLines?: number;
  /** For a windowed read: lines remain after the window. */
  readonly more?: boolean;
}

/** A `write_file` request as the host receives it. */
export interface FsWriteRequest {
  readonly path: string;
  readonly content: string;
  readonly append?: boolean;
  readonly createDirs?: boolean;
}

/** What a write did; `path` is relative to the root. */
export interface FileWrite {
  readonly path: string;
  readonly bytesWritten: number;
}

/** A `list_directory` request as the host receives it. */
export interface FsListRequest {
  readonly path: string;
  readonly recursive?: boolean;
  readonly glob?: string;
  /** List `.git` and `node_modules` too (skipped by default unless the path names them). */
  readonly includeIgnored?: boolean;
  /**
   * A previous listing's `cursor`: continue after its last entry. A host may serve later pages
   * from a snapshot of the first page's names (entries removed since skipped, added since not
   * listed); an expired or unknown snapshot resumes by walking again from the position.
   */
  readonly cursor?: string;
}

/** One listing entry; `name` is relative to the root. */
export interface DirectoryEntry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly sizeBytes: number;
  /** ISO 8601. */
  readonly lastModified: string;
}

/** A listing; `truncated` says the entry cap cut it. */
export interface DirectoryListing {
  readonly entries: readonly DirectoryEntry[];
  readonly truncated?: boolean;
  /** How many entries the listing has in all pages (those the walk saw; see `totalExact`). */
  readonly total?: number;
  /** False when the walk stopped at its scan cap, so `total` is a lower bound (a cursor goes on). */
  readonly totalExact?: boolean;
  /** Pass back as `cursor` for the next page; present while entries remain. */
  readonly cursor?: string;
  /** How many `.git` / `node_modules` entries were skipped (neither listed nor walked). */
  readonly ignored?: number;
}

/** A `search_files` request as the host receives it (already validated). */
export interface FsSearchRequest {
  readonly pattern: string;
  /** Directory (or one file) to search, relative to the root; default the root. */
  readonly path?: string;
  /** Only files whose path below `path` matches this glob (a glob without `/` matches basenames). */
  readonly glob?: string;
  /** `pattern` is an RE2 regular expression (linear time) rather than a literal. */
  readonly regex?: boolean;
  /** Default true. */
  readonly caseSensitive?: boolean;
  /** Lines of context before and after each match. */
  readonly contextLines?: number;
  /** The most matching lines returned. */
  readonly maxResults?: number;
}

/** One matching line: `line` and `column` are 1-based, `text` the (bounded) line. */
export interface FileSearchMatch {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
  /** With `contextLines`: up to that many lines before the match, nearest last. */
  readonly before?: readonly string[];
  /** With `contextLines`: up to that many lines after the match. */
  readonly after?: readonly string[];
}

/** Why a search ended before it had looked at everything. */
export type FileSearchStop = 'max_results' | 'file_limit' | 'byte_limit' | 'time_limit';

/** A search's matches; `truncated` says a bound (`stoppedBy`) cut it. */
export interface FileSearchResult {
  readonly matches: readonly FileSearchMatch[];
  readonly truncated: boolean;
  readonly stoppedBy?: FileSearchStop;
  /** Files whose text was searched. */
  readonly filesSearched: number;
  /** Files passed over: binary, over the size cap, or ignored (.gitignore, node_modules). */
  readonly skipped?: {
    readonly binary: number;
    readonly tooLarge: number;
    readonly ignored: number;
  };
}

/** One replacement of an `edit_file` request. */
export interface FsEdit {
  /** Non-empty text that must occur exactly once (every occurrence with `replaceAll`). */
  readonly oldText: string;
  /** May be empty: the text is deleted. */
  readonly newText: string;
  readonly replaceAll?: boolean;
}

/** An `edit_file` request as the host receives it (already validated and governed). */
export interface FsEditRequest {
  readonly path: string;
  /** Applied in order to one copy of the file: a later edit sees the text earlier ones made. */
  readonly edits: readonly FsEdit[];
  /** Compute the diff and write nothing. */
  readonly dryRun?: boolean;
}

/** What an edit did (or, for a dry run, would do); `path` is relative to the root. */
export interface FileEdit {
  readonly path: string;
  /** Occurrences replaced, over all edits. */
  readonly replacements: number;
  /** A unified diff whose hunks surround the replaced ranges. */
  readonly diff: string;
}

/** A `move_file` request as the host receives it (already validated and governed). */
export interface FsMoveRequest {
  /** The file or directory to move, relative to the root. */
  readonly source: string;
  /** Its new path; missing parent directories are created inside the workspace. */
  readonly destination: string;
  /** Replace an existing file (or empty directory) at `destination`; refused otherwise. */
  readonly overwrite?: boolean;
}

/** What a move did; both paths are relative to the root. */
export interface FileMove {
  readonly source: string;
  readonly destination: string;
  /** An existing entry at `destination` was replaced. */
  readonly overwritten: boolean;
}

/** A `create_directory` request as the host receives it. */
export interface FsMakeDirectoryRequest {
  readonly path: string;
}

/** What `create_directory` did; `created` is false when the directory already existed. */
export interface DirectoryMake {
  readonly path: string;
  readonly created: boolean;
}

/** The jailed filesystem arm. */
export interface FsCapability {
  readFile(request: FsReadRequest, signal?: AbortSignalLike): Promise<FileRead>;
  /** Absent on a read-only host: `write_file` then fails with `ToolUnavailableError`. */
  readonly writeFile?: (request: FsWriteRequest, signal?: AbortSignalLike) => Promise<FileWrite>;
  listDirectory(request: FsListRequest, signal?: AbortSignalLike): Promise<DirectoryListing>;
  /**
   * Absent on a read-only host: `edit_file` then fails with `ToolUnavailableError`. Reads the
   * file, applies every edit or none, and (unless `dryRun`) replaces it by temp file + rename
   * only if it did not change since that read; a changed file is refused, never overwritten.
   */
  readonly editFile?: (request: FsEditRequest, signal?: AbortSignalLike) => Promise<FileEdit>;
  /** Absent on a host without search: `search_files` then fails with `ToolUnavailableError`. */
  readonly searchFiles?: (
    request: FsSearchRequest,
    signal?: AbortSignalLike,
  ) => Promise<FileSearchResult>;
  /**
   * Absent on a read-only host: `move_file` then fails with `ToolUnavailableError`. Renames
   * between the two verified parent directories; never replaces an entry unless `overwrite`.
   */
  readonly moveFile?: (request: FsMoveRequest, signal?: AbortSignalLike) => Promise<FileMove>;
  /** Absent on a read-only host: `create_directory` then fails with `ToolUnavailableError`. */
  readonly makeDirectory?: (
    request: FsMakeDirectoryRequest,
    signal?: AbortSignalLike,
  ) => Promise<DirectoryMake>;
}
