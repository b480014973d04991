import { createHash, timingSafeEqual } from 'node:crypto';
import { ToolArgsInvalidError } from '@toolhost/core';
import type { FsListRequest } from '@toolhost/core/host';

const TOOL_ID = 'list_directory';
const V1 = 'l1';
const V2 = 'l2';
// An index in a snapshot, base 36: at most seven digits.
const OFFSET = /^[0-9a-z]{1,7}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * What a cursor is bound to: the verified real directory and the arguments that shape the walk.
 * A cursor from another listing (another path, glob or flag) is refused, not misread.
 */
export function listCursorBinding(realDirectory: string, request: FsListRequest): string {
  return JSON.stringify([
    realDirectory,
    request.recursive === true,
    request.glob ?? null,
    request.includeIgnored === true,
  ]);
}

/** Where a later page of a snapshotted listing starts: the snapshot's id and an index in it. */
export interface SnapshotPlace {
  readonly id: string;
  readonly offset: number;
}

/** What a cursor says: the position after which to continue, and maybe the snapshot to slice. */
export interface ListCursor {
  readonly position: readonly string[];
  readonly snapshot?: SnapshotPlace;
}

/**
 * A cursor naming the position after the entry at `segments` (its components below the listed
 * directory). It names a place in the walk's order, never a path that is opened. With `snapshot`
 * (version `l2`) it also names the host's snapshot of the listing and where the next page starts
 * in it; without one, or once that snapshot has expired, the next page re-walks from the verified
 * directory and skips up to the position, so a cursor can reach nothing the listing could not.
 */
export function encodeListCursor(
  segments: readonly string[],
  binding: string,
  snapshot?: SnapshotPlace,
): string {
  const position = Buffer.from(segments.join('/'), 'utf8').toString('base64url');
  if (snapshot === undefined) return `${V1}.${position}.${checkOf(binding, position)}`;
  const offset = snapshot.offset.toString(36);
  const check = checkOf(binding, `${position}\0${snapshot.id}\0${offset}`);
  return `${V2}.${position}.${snapshot.id}.${offset}.${check}`;
}

/**
 * What a cursor says, or `ToolArgsInvalidError` on `cursor` (correctable: list again without it)
 * for one that is malformed, edited or from another listing.
 */
export function decodeListCursor(cursor: string, binding: string): ListCursor {
  const parts = cursor.split('.');
  const [version, position] = parts;
  if (position === undefined || !BASE64URL.test(position)) throw invalidCursor();
  let snapshot: SnapshotPlace | undefined;
  if (version === V1 && parts.length === 3) {
    if (!sameCheck(parts[2] ?? '', checkOf(binding, position))) throw invalidCursor();
  } else if (version === V2 && parts.length === 5) {
    const [, , id = '', offset = '', check = ''] = parts;
    if (!BASE64URL.test(id) || !OFFSET.test(offset)) throw invalidCursor();
    if (!sameCheck(check, checkOf(binding, `${position}\0${id}\0${offset}`))) throw invalidCursor();
    snapshot = { id, offset: Number.parseInt(offset, 36) };
  } else throw invalidCursor();
  const segments = Buffer.from(position, 'base64url').toString('utf8').split('/');
  // Only a cursor this module wrote passes the check; this guards the decoder all the same.
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    throw invalidCursor();
  return snapshot === undefined ? { position: segments } : { position: segments, snapshot };
}

/**
 * Orders an entry (its depth, and its components, built only when the depths tie) against a
 * position as the breadth-first walk meets them: depth, then component-wise code-unit order.
 */
export function comparePosition(
  entry: { readonly depth: number; readonly segments: readonly string[] },
  position: readonly string[],
): number {
  if (entry.depth !== position.length) return entry.depth - position.length;
  const segments = entry.segments;
  for (let index = 0; index < segments.length; index += 1) {
    const left = segments[index] ?? '';
    const right = position[index] ?? '';
    if (left !== right) return left < right ? -1 : 1;
  }
  return 0;
}

// A digest, not a keyed MAC: a cursor stays valid across processes (`toolhost call` is one per
// call), and forging one gains nothing, since it only says where to resume a listing.
function checkOf(binding: string, position: string): string {
  return createHash('sha256')
    .update(binding)
    .update('\0')
    .update(position)
    .digest('base64url')
    .slice(0, 22);
}

function sameCheck(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

function invalidCursor(): ToolArgsInvalidError {
  return new ToolArgsInvalidError(TOOL_ID, [{ field: 'cursor', problem: 'invalid_cursor' }]);
}
