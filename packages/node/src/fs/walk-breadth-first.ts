import path from 'node:path';
import type { ToolId } from '@toolhost/core';
import type { AbortSignalLike, DirectoryEntry } from '@toolhost/core/host';
import type { DirectoryRef } from './descriptor-path.js';
import { createLevelStats } from './entry-stats.js';
import type { EntryStats, LevelStat } from './entry-stats.js';
import { throwIfAborted } from './fs-error.js';
import type { Jail } from './jail.js';
import { readLevel } from './list-level.js';
import { listStatAddon } from './list-stat-source.js';
import { createSearchPace } from './search-pace.js';
import type { PendingDirectory } from './open-chain.js';
import { createOpenChain } from './open-chain.js';

/**
 * One entry met by `walkBreadthFirst`: its name, its depth and components below the start
 * (`relative` joined by `/`), its real path and its type as `readdir` saw it. `lstat()` (never
 * following, through the open parent's descriptor) gives its metadata; `undefined` once gone.
 * All but the type are computed on demand: a walk that only counts most entries never builds them.
 */
export class LevelEntry {
  #stats: EntryStats | undefined | null = null;

  constructor(
    /** The open directory the entry is in (its real path and descriptor). */
    readonly directory: DirectoryRef,
    private readonly parent: readonly string[],
    readonly name: string,
    /** As readdir reported it (never following): lstat's may differ by now. */
    readonly type: DirectoryEntry['type'],
    private readonly level: LevelStat,
    private readonly index: number,
  ) {}

  get depth(): number {
    return this.parent.length + 1;
  }

  get segments(): readonly string[] {
    return [...this.parent, this.name];
  }

  get relative(): string {
    return this.parent.length === 0 ? this.name : `${this.parent.join('/')}/${this.name}`;
  }

  get path(): string {
    // A verified real path and one readdir name: nothing for `path.join` to normalise.
    const parent = this.directory.path;
    return parent === path.sep ? `${parent}${this.name}` : `${parent}${path.sep}${this.name}`;
  }

  lstat(): EntryStats | undefined {
    // Once per entry, and synchronous: one name in an already-open directory, answered from
    // the dentry cache (see `createLevelStat`, which asks for a batch of names at once).
    if (this.#stats === null) this.#stats = this.level(this.index);
    return this.#stats;
  }
}

/** What the walk does after an entry: go on (and into a directory), not enter it, or stop. */
export type WalkStep = 'descend' | 'prune' | 'stop';

/** How far `walkBreadthFirst` goes and what it does with each entry. */
export interface WalkBreadthFirstOptions {
  readonly toolId: ToolId;
  readonly recursive: boolean;
  readonly visit: (entry: LevelEntry) => WalkStep;
  /** Told of each directory below the start just before its entries are visited. */
  readonly enter?: (directory: PendingDirectory) => void;
  readonly signal?: AbortSignalLike | undefined;
}

/**
 * Walks a verified directory breadth-first: every entry of depth 1, then of depth 2, each level
 * in component-wise code-unit order (so a position in the walk is its path's components). Floor
 * entries are omitted and never descended, a symlinked directory is reported and never followed,
 * as in `walkTree`. A queued directory is reopened one component at a time from the start, each
 * relative to its parent's descriptor and verified, and must be the inode it was listed as;
 * the open chain is shared between siblings, so at most depth descriptors are open at once.
 * The opens are synchronous; the walk gives the event loop a turn (and checks the signal) every
 * few milliseconds between directories. Resolves false when `visit` stopped it.
 */
export async function walkBreadthFirst(
  jail: Jail,
  start: DirectoryRef,
  options: WalkBreadthFirstOptions,
): Promise<boolean> {
  const queue: (PendingDirectory | undefined)[] = [];
  const chain = createOpenChain(jail, start);
  const addon = await listStatAddon();
  const pace = createSearchPace(options.signal, options.toolId);
  const walkLevel = async (directory: DirectoryRef, segments: readonly string[]) => {
    throwIfAborted(options.toolId, options.signal);
    const names = await readLevel(jail, directory, addon);
    const level = createLevelStats(
      directory,
      names.map(({ name }) => name),
      addon,
    );
    try {
      for (let index = 0; index < names.length; index += 1) {
        const { name, type } = names[index] ?? { name: '', type: 'other' };
        const entry = new LevelEntry(directory, segments, name, type, level.stat, index);
        const step = options.visit(entry);
        if (step === 'stop') return false;
        if (step === 'prune' || entry.type !== 'directory' || !options.recursive) continue;
        // Only what is walked into, or listed, is lstat'ed: a count needs no metadata.
        const stats = entry.lstat();
        if (stats?.type !== 'directory') continue;
        queue.push({ segments: entry.segments, seen: { dev: stats.dev, ino: stats.ino } });
      }
      return true;
    } finally {
      // The chain may close this directory as soon as the next one opens.
      level.seal();
    }
  };
  try {
    if (!(await walkLevel(start, []))) return false;
    for (let next = 0; next < queue.length; next += 1) {
      const pending = queue[next];
      // Released as it is taken: a wide tree's queue should not hold every level at once.
      queue[next] = undefined;
      if (pending === undefined) continue;
      if (pace.due()) await pace.pause();
      const directory = chain.open(pending);
      if (directory === undefined) continue;
      options.enter?.(pending);
      if (!(await walkLevel(directory, pending.segments))) return false;
    }
    return true;
  } finally {
    chain.close();
  }
}
