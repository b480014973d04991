import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { CliUsageError } from '../cli-error.js';
import { createOwnerOnlyFile } from '../owner-only-file.js';

/** Random bytes behind one `serve --http` token: 256 bits, as long as a guess must be. */
export const HTTP_TOKEN_BYTES = 32;

/** A fresh per-start token, base64url so it sits in a query string unescaped. */
export function createHttpToken(): string {
  return randomBytes(HTTP_TOKEN_BYTES).toString('base64url');
}

/**
 * Whether a request carries the token in one of the two accepted places: the `token` query
 * parameter (the printed URL) or `Authorization: Bearer`. Every credential presented must match;
 * a request with none, or with one elsewhere (another header, a cookie, the path), is refused.
 */
export function hasHttpToken(request: IncomingMessage, token: string): boolean {
  const presented = presentedTokens(request);
  if (presented === undefined || presented.length === 0) return false;
  const expected = Buffer.from(token, 'utf8');
  // `every`, not `some`: a right token beside a wrong one is a probe, not a client.
  return presented.every((candidate) => sameToken(Buffer.from(candidate, 'utf8'), expected));
}

/**
 * Writes the token to a new 0600 file for a client config to read (never an existing file, never
 * through a symlink: see `createOwnerOnlyFile`). Returns the remover.
 */
export async function writeHttpTokenFile(
  file: string,
  token: string,
): Promise<() => Promise<void>> {
  return createOwnerOnlyFile(file, `${token}\n`).catch((error: unknown) => {
    // Only the create is the flag's fault; a failed write after it is a fault of this machine.
    if ((error as NodeJS.ErrnoException).syscall !== 'open') throw error;
    throw new CliUsageError('--token-file must name a file that does not exist yet', {
      cause: error,
    });
  });
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+)$/i;

// `undefined` when the request is malformed in a way no real client produces.
function presentedTokens(request: IncomingMessage): string[] | undefined {
  const tokens = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.getAll('token');
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const bearer = BEARER.exec(authorization)?.[1];
    // Another scheme (Basic, a bare token) is a credential in the wrong place: refused.
    if (bearer === undefined) return undefined;
    tokens.push(bearer);
  }
  return tokens;
}

function sameToken(candidate: Buffer, expected: Buffer): boolean {
  // The length is public (always 43 characters); only the bytes are compared in constant time.
  if (candidate.length !== expected.length) return false;
  return timingSafeEqual(candidate, expected);
}
