import { closeSync, constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolPolicyError } from '@toolhost/core';
import type { ToolId } from '@toolhost/core';
import type { FsScopeTier } from '@toolhost/core/policy';
import type { DirectoryRef } from './descriptor-path.js';
import { beforeWriteEffect, fsFailure } from './fs-error.js';
import { isOnReadFloor, isOnWriteFloor } from './floor.js';
import type { FloorContext } from './floor.js';
import { createReadFloorJudge } from './read-floor-judge.js';
import { judgeWrite } from './judge-write.js';
import { isInside, resolveRequestedPath, segmentsBelow } from './requested-path.js';
import {
  checkKind,
  createVerifyDescriptor,
  openChildDirectory,
  openChildDirectorySync,
} from './verify-descriptor.js';
import type { OpenedDescriptor } from './verify-descriptor.js';
import {
  DIRECTORY_FLAGS,
  walk,
  walkForWrite,
  walkSync,
  type DirectoryCreation,
  type WalkBase,
} from './walk-components.js';

// Linux's own limit on symlink expansions in one lookup.
const MAX_SYMLINK_HOPS = 40;

/** An open, verified file or directory; the caller closes `handle`. */
export interface OpenedEntry extends DirectoryRef {
  readonly handle: FileHandle;
  readonly stats: Stats;
}

/**
 * An open, verified regular file as a bare descriptor; the caller closes `fd` (`closeSync`).
 * No FileHandle: a read through one costs a thread-pool hop to open and another to close.
 */
export type OpenedFile = OpenedDescriptor;

/** The verified directory a write happens in, and the name it writes; the caller releases it. */
export interface WriteTarget {
  readonly directory: DirectoryRef;
  /** Closes the directory descriptor (a root's own descriptor stays open for the host). */
  release(): Promise<void>;
  readonly name: string;
  /** The real path written: the verified directory's path plus `name`. */
  readonly path: string;
  /** The walk made a missing parent (`createDirs`): the call's effect has already begun. */
  readonly createdDirectories: boolean;
}

/** What the jail needs from the host's options. */
export interface JailOptions {
  readonly root: string;
  readonly fsScope: FsScopeTier;
  readonly extraRoots: readonly string[];
  readonly floor: FloorContext;
}

/** The filesystem jail: every fs operation opens through it. */
export interface Jail {
  readonly root: string;
  readonly floor: FloorContext;
  /**
   * Opens an existing file or directory for reading. The walk starts at an allowed root's open
   * descriptor and opens one component at a time with `O_NOFOLLOW`; a symlink is expanded by the
   * walker, re-checked against scope and floor, and walked again from a root. The opened
   * descriptor is then verified where the kernel says it is.
   */
  openForRead(toolId: ToolId, requested: string, kind: 'file' | 'directory'): Promise<OpenedEntry>;
  /**
   * `openForRead` of a file, every step synchronous (open, expansion, verification), the same
   * checks in the same order: a read then costs one asynchronous hop, the read itself.
   */
  openFileForRead(toolId: ToolId, requested: string): OpenedFile;
  /** `openFileForRead` of a directory: `openForRead`'s checks, no FileHandle. */
  openDirectoryForRead(toolId: ToolId, requested: string): OpenedDescriptor;
  /** Opens a subdirectory of an open directory without following a symlink; `undefined` if refused. */
  openChildDirectory(parent: DirectoryRef, name: string): Promise<OpenedEntry | undefined>;
  /** `openChildDirectory` as a bare descriptor, synchronously; the caller closes `fd`. */
  openChildDirectorySync(parent: DirectoryRef, name: string): OpenedDescriptor | undefined;
  /**
   * Walks to the parent of a write target, creating directories on request. A symlinked directory
   * on the way is expanded and re-checked like a read's, so the write lands at the verified real
   * location and the write floor judges that location; the leaf itself is never followed. A
   * failure before any directory was made is marked `refusedBeforeEffect`; one after is not.
   */
  openParentForWrite(toolId: ToolId, requested: string, createDirs: boolean): Promise<WriteTarget>;
  /**
   * The refusals `openParentForWrite` would make for `requested`, judged without opening,
   * creating or changing anything (`judge-write.ts`): the host's preflight, before anyone is
   * asked. Passing it is no promise: the walk judges again.
   */
  judgeWrite(toolId: ToolId, requested: string): void;
  /** A real path as the model sees it: relative to the root when inside it. */
  displayName(real: string): string;
  close(): Promise<void>;
}

interface JailRoot extends WalkBase {
  readonly writable: boolean;
}

/** Opens the allowed roots of the tier and returns the jail over them. */
export async function createJail(options: JailOptions): Promise<Jail> {
  // Without O_NOFOLLOW (Windows) no open here could refuse a symlink: fail closed.
  if (constants.O_NOFOLLOW === undefined || constants.O_DIRECTORY === undefined)
    throw new TypeError('toolhost: the fs jail needs a POSIX platform (O_NOFOLLOW)');
  const { root, floor } = options;
  const roots = await openRoots(options);

  const containing = (
    toolId: ToolId,
    target: string,
    mode: 'read' | 'write',
    refusal: 'scope_escape' | 'symlink_refused' = 'scope_escape',
  ): JailRoot => {
    let best: JailRoot | undefined;
    for (const candidate of roots) {
      if (mode === 'write' && !candidate.writable) continue;
      if (!isInside(candidate.path, target)) continue;
      if (best === undefined || candidate.path.length > best.path.length) best = candidate;
    }
    if (best === undefined) throw new ToolPolicyError(toolId, refusal);
    return best;
  };

  const onReadFloor = createReadFloorJudge(floor);
  const verifyDescriptor = createVerifyDescriptor(roots, onReadFloor);

  const verify = async (
    toolId: ToolId,
    entry: { handle: FileHandle; path: string },
    mode: 'read' | 'write',
  ): Promise<OpenedEntry> => {
    const { path: real, stats } = verifyDescriptor(toolId, entry.handle.fd, entry.path, mode);
    return { handle: entry.handle, fd: entry.handle.fd, path: real, stats };
  };

  // Judges one target of a read (the requested path, then each symlink's expansion) before it is
  // walked: off the floor, inside an allowed root; gives the root and the segments below it.
  const readTarget = (
    toolId: ToolId,
    target: string,
    hop: number,
  ): { base: JailRoot; segments: string[] } => {
    if (onReadFloor(target)) throw new ToolPolicyError(toolId, 'protected_path');
    // Only the model's own path is a recoverable scope escape; a symlink in the workspace
    // that points out of it is a refusal the model cannot fix by asking again.
    const base = containing(toolId, target, 'read', hop === 0 ? 'scope_escape' : 'symlink_refused');
    return { base, segments: segmentsBelow(base.path, target) };
  };

  // `openForRead`, every step synchronous, the opened entry a bare descriptor.
  const openSyncForRead = (
    toolId: ToolId,
    requested: string,
    kind: 'file' | 'directory',
  ): OpenedDescriptor => {
    let target = resolveRequestedPath(toolId, root, requested);
    if (isOnReadFloor(requested, floor)) throw new ToolPolicyError(toolId, 'protected_path');
    for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop += 1) {
      const { base, segments } = readTarget(toolId, target, hop);
      const step = walkSync(toolId, base, segments, kind);
      if ('redirect' in step) {
        target = step.redirect;
        continue;
      }
      try {
        const opened = verifyDescriptor(toolId, step.fd, step.path, 'read');
        checkKind(toolId, opened.stats, kind);
        return { fd: step.fd, ...opened };
      } catch (error) {
        closeSync(step.fd);
        throw error;
      }
    }
    throw new ToolPolicyError(toolId, 'symlink_refused');
  };

  const openParent = async (
    toolId: ToolId,
    requested: string,
    creation: DirectoryCreation | undefined,
  ): Promise<WriteTarget> => {
    let target = resolveRequestedPath(toolId, root, requested);
    if (isOnWriteFloor(requested, floor)) throw new ToolPolicyError(toolId, 'protected_path');
    for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop += 1) {
      // Judged again after every symlink: `alias -> .git` lands the write in `.git`.
      if (isOnWriteFloor(target, floor)) throw new ToolPolicyError(toolId, 'protected_path');
      const base = containing(
        toolId,
        target,
        'write',
        hop === 0 ? 'scope_escape' : 'symlink_refused',
      );
      const segments = segmentsBelow(base.path, target);
      const name = segments.pop();
      if (name === undefined) throw fsFailure(toolId, 'is_directory', true);
      const walked = await walkForWrite(toolId, base, segments, creation, verify);
      if ('redirect' in walked) {
        // Only directories on the way are resolved; the leaf `name` is never followed.
        target = path.join(walked.redirect, name);
        continue;
      }
      // A write straight into a root reuses the root's descriptor, which outlives the call.
      const release =
        walked.handle === base.handle ? async () => undefined : () => walked.handle.close();
      try {
        const directory = await verify(toolId, walked, 'write');
        const written = path.join(directory.path, name);
        if (isOnWriteFloor(written, floor)) throw new ToolPolicyError(toolId, 'protected_path');
        return {
          directory,
          name,
          path: written,
          release,
          createdDirectories: creation?.created === true,
        };
      } catch (error) {
        await release();
        throw error;
      }
    }
    throw new ToolPolicyError(toolId, 'symlink_refused');
  };

  return {
    root,
    floor,

    async openForRead(toolId, requested, kind) {
      let target = resolveRequestedPath(toolId, root, requested);
      // The requested spelling is checked too: `.env` may be a symlink to an innocent file.
      if (isOnReadFloor(requested, floor)) throw new ToolPolicyError(toolId, 'protected_path');
      for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop += 1) {
        const { base, segments } = readTarget(toolId, target, hop);
        const step = await walk(toolId, base, segments, kind);
        if ('redirect' in step) {
          target = step.redirect;
          continue;
        }
        try {
          const opened = await verify(toolId, step, 'read');
          checkKind(toolId, opened.stats, kind);
          return opened;
        } catch (error) {
          await step.handle.close();
          throw error;
        }
      }
      throw new ToolPolicyError(toolId, 'symlink_refused');
    },

    openFileForRead: (toolId, requested) => openSyncForRead(toolId, requested, 'file'),
    openDirectoryForRead: (toolId, requested) => openSyncForRead(toolId, requested, 'directory'),

    openChildDirectory: (parent, name) => openChildDirectory(verifyDescriptor, parent, name),

    openChildDirectorySync: (parent, name) =>
      openChildDirectorySync(verifyDescriptor, parent, name),

    async openParentForWrite(toolId, requested, createDirs) {
      // Allocated only when the walk may create; a plain write's walk never does.
      const creation = createDirs ? { created: false } : undefined;
      try {
        return await openParent(toolId, requested, creation);
      } catch (error) {
        throw creation?.created === true ? error : beforeWriteEffect(toolId, error);
      }
    },

    judgeWrite: (toolId, requested) =>
      judgeWrite(
        {
          root,
          floor,
          containing: (id, target, refusal) => void containing(id, target, 'write', refusal),
        },
        toolId,
        requested,
      ),

    displayName(real) {
      if (real === root) return '.';
      if (!isInside(root, real)) return real;
      // A plain slice: every path here is already absolute and normalised, and a listing names
      // a thousand entries.
      const relative = real.slice(root.endsWith(path.sep) ? root.length : root.length + 1);
      return path.sep === '/' ? relative : relative.split(path.sep).join('/');
    },

    async close() {
      await Promise.all(roots.map((candidate) => candidate.handle.close()));
    },
  };
}

async function openRoots(options: JailOptions): Promise<JailRoot[]> {
  const wanted: { path: string; writable: boolean }[] =
    options.fsScope === 'full'
      ? [{ path: path.parse(options.root).root, writable: true }]
      : [
          { path: options.root, writable: true },
          ...(options.fsScope === 'project'
            ? options.extraRoots.map((extra) => ({ path: extra, writable: true }))
            : []),
          // The run's spill files: paged with read_file, never written by a tool.
          { path: options.floor.spillDir, writable: false },
        ];
  const roots: JailRoot[] = [];
  try {
    for (const { path: rootPath, writable } of wanted) {
      const handle = await open(rootPath, DIRECTORY_FLAGS);
      roots.push({ handle, fd: handle.fd, path: rootPath, writable });
    }
  } catch (error) {
    await Promise.all(roots.map((opened) => opened.handle.close()));
    throw error;
  }
  return roots;
}
