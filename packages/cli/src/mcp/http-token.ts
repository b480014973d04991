import { randomBytes, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { CliUsageError } from '../cli-error.js';

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
 * Writes the token to a new 0600 file for a client config to read. `O_EXCL` with `O_NOFOLLOW`
 * refuses an existing file and any symlink, so another local user cannot aim the write at a
 * file of theirs (and read the token) or at one of ours (and clobber it). Returns the remover.
 */
export async function writeHttpTokenFile(
  file: string,
  token: string,
): Promise<() => Promise<void>> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(file, flags, 0o600).catch((error: unknown) => {
    throw new CliUsageError('--token-file must name a file that does not exist yet', {
      cause: error,
    });
  });
  try {
    // The umask may only narrow the mode; chmod pins it so the file says exactly owner-only.
    await handle.chmod(0o600);
    await handle.writeFile(`${token}\n`, 'utf8');
  } finally {
    await handle.close();
  }
  const written = await lstat(file, { bigint: true });
  return async () => {
    // Only the file this start created: a file swapped in since is someone else's to keep. The
    // change time, as inode numbers are reused as soon as a file is unlinked.
    const now = await lstat(file, { bigint: true }).catch(() => undefined);
    if (now?.ino === written.ino && now.dev === written.dev && now.ctimeNs === written.ctimeNs) {
      await unlink(file);
    }
  };
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
