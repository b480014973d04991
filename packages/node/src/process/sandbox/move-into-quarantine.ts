import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, renameSync } from 'node:fs';
import path from 'node:path';
import { childPath, descriptorPath, type DirectoryRef } from '../../fs/descriptor-path.js';
import type { GitIndirectionSnapshot } from './git-indirections.js';

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Moves each name (relative to the git dir, `/`-separated) into a fresh
 * `<gitDir>/toolhost-quarantine-<time>-<random>/`, and returns where each went, relative to the git
 * dir; a name missing from the answer could not be moved. Every directory is opened without
 * following a symlink and every move is a rename of the name itself (a planted symlink moves, what
 * it points at is never touched), so nothing outside the git dir is read, moved or created.
 */
export function moveIntoQuarantine(
  repository: Pick<GitIndirectionSnapshot, 'gitDir' | 'realGitDir'>,
  names: readonly string[],
): Map<string, string> {
  const moved = new Map<string, string>();
  const opened: number[] = [];
  try {
    const gitFd = openSync(repository.gitDir, DIRECTORY_FLAGS);
    opened.push(gitFd);
    // A git dir swapped (by a concurrent run) for another directory since the snapshot is not
    // the one whose names were judged: nothing is moved out of it.
    if (descriptorPath(gitFd, repository.realGitDir) !== repository.realGitDir) return moved;
    const gitRef: DirectoryRef = { fd: gitFd, path: repository.realGitDir };
    // A fresh, unguessable name made by `mkdir` (which never follows a symlink): a name the
    // sandbox planted in advance cannot redirect the quarantine.
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const directory = `toolhost-quarantine-${stamp}-${randomBytes(4).toString('hex')}`;
    mkdirSync(childPath(gitRef, directory), { mode: 0o700 });
    const quarantineFd = openSync(childPath(gitRef, directory), DIRECTORY_FLAGS);
    opened.push(quarantineFd);
    const quarantineRef: DirectoryRef = { fd: quarantineFd, path: directory };
    names.forEach((name, index) => {
      const target = `${index}-${encodeURIComponent(name)}`.slice(0, 200);
      try {
        const { parent, last } = openParent(gitRef, name, opened);
        renameSync(childPath(parent, last), childPath(quarantineRef, target));
        moved.set(name, `${directory}/${target}`);
      } catch {
        // Left where it is: the event says so (no `quarantinedAs`).
      }
    });
  } catch {
    // The git dir or the quarantine could not be opened: every event says nothing was moved.
  }
  for (const fd of opened) closeSync(fd);
  return moved;
}

// Each directory on the way opens relative to the one before and never through a symlink.
function openParent(
  gitRef: DirectoryRef,
  name: string,
  opened: number[],
): { parent: DirectoryRef; last: string } {
  const segments = name.split('/');
  const last = segments.pop() ?? '';
  let parent = gitRef;
  for (const segment of segments) {
    const fd = openSync(childPath(parent, segment), DIRECTORY_FLAGS);
    opened.push(fd);
    parent = { fd, path: path.join(parent.path, segment) };
  }
  return { parent, last };
}
