import { createHash, timingSafeEqual } from 'node:crypto';
import { ToolArgsInvalidError } from '@toolhost/core';
import type { FsListRequest } from '@toolhost/core';

const TOOL_ID = 'list_directory';
const VERSION = 'l1';
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

/**
 * A cursor naming the position after the entry at `segments` (its components below the listed
 * directory). It names a place in the walk's order, never a path that is opened: the next page
 * re-walks from the verified directory and skips up to it, so an entry added or removed between
 * pages moves nothing else, and a cursor can reach nothing the listing itself could not.
 */
export function encodeListCursor(segments: readonly string[], binding: string): string {
  const position = Buffer.from(segments.join('/'), 'utf8').toString('base64url');
  return `${VERSION}.${position}.${checkOf(binding, position)}`;
}

/**
 * The position a cursor names, or `ToolArgsInvalidError` on `cursor` (correctable: list again
 * without it) for one that is malformed, edited or from another listing.
 */
export function decodeListCursor(cursor: string, binding: string): readonly string[] {
  const [version, position, check, ...rest] = cursor.split('.');
  if (
    version !== VERSION ||
    position === undefined ||
    check === undefined ||
    rest.length > 0 ||
    !BASE64URL.test(position) ||
    !sameCheck(check, checkOf(binding, position))
  )
    throw invalidCursor();
  const segments = Buffer.from(position, 'base64url').toString('utf8').split('/');
  // Only a cursor this module wrote passes the check; this guards the decoder all the same.
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    throw invalidCursor();
  return segments;
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
