// `search_files`' setup and one search's running state; the readers' loops are in search-visit.ts.
import type {
  AbortSignalLike,
  FileSearchMatch,
  FileSearchResult,
  FileSearchStop,
  FsSearchRequest,
} from '@toolhost/core/host';
import { isBinaryHead } from './binary-sniff.js';
import type { DirectoryRef } from './descriptor-path.js';
import { fsFailure, throwIfAborted, toFsError } from './fs-error.js';
import type { Jail, OpenedEntry } from './jail.js';
import type { ChildFileRead } from './open-child-file.js';
import { byteLines, scanFile, textLines } from './search-lines.js';
import { compileMatcher } from './search-matcher.js';
import type { SearchMatcher } from './search-matcher.js';
import { createSearchPace } from './search-pace.js';
import type { SearchPace } from './search-pace.js';
import type { FsAtAddon } from '@toolhost/fs-at';
import { searchFsAt } from './search-reader.js';
import { ancestorRules, openStart, readOpened } from './search-start.js';
import { visitEachFile, visitFileBatches, type SearchVisitSetup } from './search-visit.js';
import { walkSearchTree } from './search-walk.js';
import { compileGlob } from './compile-glob.js';

const TOOL_ID = 'search_files';

/** The bounds of one search; a host may lower them, tests do. */
export interface SearchLimits {
  /** Files larger than this are skipped (counted as too large), never read. */
  readonly maxFileBytes: number;
  /** The most files one search reads. */
  readonly maxFiles: number;
  /** The most bytes one search reads, summed over its files. */
  readonly maxBytes: number;
  /** Wall-clock budget; past it the search returns what it found, cut. */
  readonly timeMs: number;
  /** Directories deeper than this below the start are not entered (each level holds a descriptor). */
  readonly maxDepth: number;
  /** `maxResults` when the call names none. */
  readonly defaultMaxResults: number;
}

/** The defaults: 1 MiB a file, 50 000 files, 256 MiB, 10 s, 64 levels, 100 results. */
export const DEFAULT_SEARCH_LIMITS: SearchLimits = Object.freeze({
  maxFileBytes: 1024 * 1024,
  maxFiles: 50_000,
  maxBytes: 256 * 1024 * 1024,
  timeMs: 10_000,
  maxDepth: 64,
  defaultMaxResults: 100,
});

/**
 * `search_files`: a jailed, floor-filtered, streamed search. The walk holds one open chain and
 * one reused read buffer, so memory stays flat however large the tree; it honours `.gitignore`,
 * skips `.git`, `node_modules` (unless the path names it), binary and oversized files, and stops
 * cut at the first bound it meets (results, files, bytes, time).
 */
export function createSearchFiles(jail: Jail, limits: SearchLimits = DEFAULT_SEARCH_LIMITS) {
  return async function searchFiles(
    request: FsSearchRequest,
    signal?: AbortSignalLike,
  ): Promise<FileSearchResult> {
    try {
      throwIfAborted(TOOL_ID, signal);
      const matcher = await compileMatcher(
        request.pattern,
        request.regex === true,
        request.caseSensitive !== false,
      );
      const matchesGlob =
        request.glob === undefined
          ? undefined
          : // A bare `*.ts` matches at any depth; a glob with a `/` from the search's start.
            await compileGlob(TOOL_ID, 'glob', request.glob, { basename: true });
      const opened = await openStart(jail, request.path ?? '.');
      try {
        const display = jail.displayName(opened.path);
        const pace = createSearchPace(signal);
        const fsAt = await searchFsAt();
        const search = createSearch({ request, matcher, limits, pace, display, fsAt });
        // `.git` is never searched, even when named.
        if (display.split('/').includes('.git')) throw fsFailure(TOOL_ID, 'git_directory', false);
        if (!opened.stats.isDirectory()) {
          search.scanOpened(opened);
          return search.result();
        }
        const { prefix, rules } = await ancestorRules(jail, display);
        await walkSearchTree(jail, opened, {
          prefix,
          rules,
          // Naming node_modules (or a path inside it) is asking for it.
          skipNodeModules: !display.split('/').includes('node_modules'),
          maxDepth: limits.maxDepth,
          signal,
          pace,
          onIgnored: search.countIgnored,
          visitFiles: (directory, names, relatives) =>
            search.visitFiles(directory, names, relatives, matchesGlob),
        });
        return search.result();
      } finally {
        await opened.handle.close();
      }
    } catch (error) {
      throw toFsError(TOOL_ID, error, false);
    }
  };
}

interface SearchSetup {
  readonly request: FsSearchRequest;
  readonly matcher: SearchMatcher;
  readonly limits: SearchLimits;
  readonly pace: SearchPace;
  /** The start as the model names it: a match's path is this plus the path below it. */
  readonly display: string;
  /** The addon files are read through, in batches; `undefined`: Node's fs, a file at a time. */
  readonly fsAt: FsAtAddon | undefined;
}

// The running state of one search: its bounds, its one read buffer, what it found.
function createSearch({ request, matcher, limits, pace, display, fsAt }: SearchSetup) {
  const maxResults = request.maxResults ?? limits.defaultMaxResults;
  const contextLines = request.contextLines ?? 0;
  const buffer = Buffer.allocUnsafe(limits.maxFileBytes);
  const matches: FileSearchMatch[] = [];
  const skipped = { binary: 0, tooLarge: 0, ignored: 0 };
  const started = performance.now();
  let filesSearched = 0;
  let bytesRead = 0;
  let stoppedBy: FileSearchStop | undefined;

  const pathOf = (relative: string | undefined): string =>
    relative === undefined ? display : display === '.' ? relative : `${display}/${relative}`;

  // `relative` is below the start; `undefined` when the start is the one file searched.
  const scanRead = (read: ChildFileRead, relative: string | undefined): boolean => {
    if (read.kind === 'refused') return true;
    if (read.kind === 'too_large') {
      skipped.tooLarge += 1;
      return true;
    }
    return scanBytes(buffer.subarray(0, read.length), relative);
  };

  const scanBytes = (bytes: Buffer, relative: string | undefined): boolean => {
    filesSearched += 1;
    bytesRead += bytes.length;
    if (isBinaryHead(bytes, bytes.length)) {
      skipped.binary += 1;
      return true;
    }
    // Most files hold no match: one native `indexOf` settles them before anything is built.
    if (matcher.domain === 'bytes' && matcher.find(bytes, 0) === undefined) return true;
    const path = pathOf(relative);
    // One more than wanted: finding it is what says the result was cut.
    const limit = maxResults + 1 - matches.length;
    const found =
      matcher.domain === 'bytes'
        ? scanFile({
            path,
            lines: byteLines(bytes),
            find: (from) => matcher.find(bytes, from),
            contextLines,
            limit,
          })
        : scanText(bytes.toString('utf8'), path, limit);
    for (const match of found) {
      if (matches.length === maxResults) {
        stoppedBy = 'max_results';
        return false;
      }
      matches.push(match);
    }
    return true;
  };

  const scanText = (text: string, path: string, limit: number): FileSearchMatch[] => {
    if (matcher.domain !== 'text') return [];
    return scanFile({
      path,
      lines: textLines(text),
      find: matcher.over(text),
      inLine: matcher.inLine,
      contextLines,
      limit,
    });
  };

  const overBudget = (now: number): FileSearchStop | undefined => {
    if (filesSearched >= limits.maxFiles) return 'file_limit';
    if (bytesRead >= limits.maxBytes) return 'byte_limit';
    if (now - started >= limits.timeMs) return 'time_limit';
    return undefined;
  };

  const visitSetup: SearchVisitSetup = {
    pace,
    buffer,
    maxFileBytes: limits.maxFileBytes,
    stopsAt: (now) => {
      stoppedBy = overBudget(now);
      return stoppedBy !== undefined;
    },
    scanRead,
    scanBytes,
    countTooLarge: () => {
      skipped.tooLarge += 1;
    },
  };
  const visitRun =
    fsAt === undefined ? visitEachFile(visitSetup) : visitFileBatches(fsAt, visitSetup);

  return {
    countIgnored() {
      skipped.ignored += 1;
    },

    // Synchronous unless it is time to yield: a promise per file was a tenth of the search.
    visitFiles(
      directory: DirectoryRef,
      names: readonly string[],
      relatives: readonly string[],
      matchesGlob: ((relative: string) => boolean) | undefined,
    ): boolean | Promise<boolean> {
      if (matchesGlob === undefined) return visitRun(directory, names, relatives);
      const wanted: string[] = [];
      const wantedRelatives: string[] = [];
      for (const [index, relative] of relatives.entries()) {
        if (!matchesGlob(relative)) continue;
        wanted.push(names[index] ?? '');
        wantedRelatives.push(relative);
      }
      return visitRun(directory, wanted, wantedRelatives);
    },

    scanOpened(opened: OpenedEntry): void {
      scanRead(readOpened(opened, buffer), undefined);
    },

    result(): FileSearchResult {
      const truncated = stoppedBy !== undefined;
      return {
        matches,
        truncated,
        ...(stoppedBy === undefined ? {} : { stoppedBy }),
        filesSearched,
        skipped,
      };
    },
  };
}
