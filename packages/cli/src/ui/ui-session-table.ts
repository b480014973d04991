import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { redactText } from '@toolhost/core/redact';
import type { UiSpill } from './ui-event.js';

/** Sessions the page lists; past it the oldest ended one is forgotten. */
export const MAX_UI_SESSIONS = 256;
/** Spills one session lists; past it the oldest is forgotten (its file stays the run's). */
export const MAX_UI_SPILLS_PER_SESSION = 200;
/** How much of one spill the page is shown: the head, redacted. */
export const MAX_UI_SPILL_VIEW_BYTES = 256 * 1024;

/** A session as the page lists it. */
export interface UiSessionInfo {
  readonly id: string;
  readonly openedAt: number;
  readonly closedAt?: number;
  readonly spills: readonly UiSpill[];
}

/** The head of one spill, as the page is shown it. */
export interface UiSpillView {
  readonly byteLength: number;
  /** The first bytes of the spill (at most `MAX_UI_SPILL_VIEW_BYTES`), redacted. */
  readonly text: string;
  readonly clipped: boolean;
}

/** What one run reports into the table. */
export interface UiSessionHandle {
  recordSpill(spill: { readonly ref: string; readonly byteLength: number }): UiSpill;
  /** The run ended: its spills were swept with it. */
  close(): void;
}

interface SessionEntry {
  readonly id: string;
  readonly openedAt: number;
  closedAt?: number;
  /** The run's own output store directory: a spill is read only from inside it. */
  readonly spillDirectory: string | undefined;
  readonly spills: Map<string, { readonly ref: string; readonly byteLength: number }>;
}

/**
 * The served sessions and their spills. A spill is read through the session that made it: its id
 * is looked up in that session's own table and its file must lie in that run's spill directory,
 * so a spill id asked for under another session is simply not found.
 */
export class UiSessionTable {
  readonly #sessions = new Map<string, SessionEntry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Registers a run; `spillDirectory` is its output store's directory (none: no spill view). */
  open(id: string, spillDirectory?: string): UiSessionHandle {
    const entry: SessionEntry = {
      id,
      openedAt: this.#now(),
      spillDirectory: spillDirectory === undefined ? undefined : path.resolve(spillDirectory),
      spills: new Map(),
    };
    this.#sessions.set(id, entry);
    this.#forgetOldEnded();
    return {
      recordSpill: (spill) => {
        const spillId = randomUUID();
        entry.spills.set(spillId, { ref: spill.ref, byteLength: spill.byteLength });
        if (entry.spills.size > MAX_UI_SPILLS_PER_SESSION) {
          const oldest = entry.spills.keys().next().value;
          if (oldest !== undefined) entry.spills.delete(oldest);
        }
        return { id: spillId, byteLength: spill.byteLength };
      },
      close: () => {
        entry.closedAt = this.#now();
        // The run's close swept its directory: nothing is left to read.
        entry.spills.clear();
      },
    };
  }

  list(): readonly UiSessionInfo[] {
    return [...this.#sessions.values()].map((entry) => ({
      id: entry.id,
      openedAt: entry.openedAt,
      ...(entry.closedAt === undefined ? {} : { closedAt: entry.closedAt }),
      spills: [...entry.spills].map(([id, spill]) => ({ id, byteLength: spill.byteLength })),
    }));
  }

  /** The head of one of `sessionId`'s spills; undefined when that session has no such spill. */
  async readSpill(sessionId: string, spillId: string): Promise<UiSpillView | undefined> {
    const entry = this.#sessions.get(sessionId);
    const spill = entry?.spills.get(spillId);
    if (entry?.spillDirectory === undefined || spill === undefined) return undefined;
    const relative = path.relative(entry.spillDirectory, path.resolve(spill.ref));
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    let handle;
    try {
      handle = await open(spill.ref, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      return undefined;
    }
    try {
      const buffer = Buffer.alloc(Math.min(spill.byteLength, MAX_UI_SPILL_VIEW_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const text = buffer.subarray(0, bytesRead).toString('utf8');
      return {
        byteLength: spill.byteLength,
        // Spilled output is a tool's full result, not a projection: redacted like one.
        text: redactText(text),
        clipped: spill.byteLength > bytesRead,
      };
    } finally {
      await handle.close();
    }
  }

  #forgetOldEnded(): void {
    for (const [id, entry] of this.#sessions) {
      if (this.#sessions.size <= MAX_UI_SESSIONS) return;
      if (entry.closedAt !== undefined) this.#sessions.delete(id);
    }
  }
}
