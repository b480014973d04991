import { open } from 'node:fs/promises';
import { isAbsolute } from 'node:path';

import { ToolExecutionError, type ToolId } from '@toolhost/core';

/** Embedder-supplied secret lookup; `undefined` ⇒ no such credential. */
export type CredentialResolver = (ref: string) => Promise<string | undefined> | string | undefined;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_SECRET_FILE_BYTES = 64 * 1024;

/**
 * Resolves an opaque `credentialRef` inside the host. With a `resolver`, it alone decides (the
 * embedder owns its secret store); otherwise `env:NAME` and `file:/absolute/path` are read.
 * Failures carry a fixed reason, never the ref or the value.
 */
export async function resolveCredential(
  toolId: ToolId,
  ref: string,
  resolver: CredentialResolver | undefined,
): Promise<string> {
  let secret: string | undefined;
  try {
    secret = resolver === undefined ? await readCredentialRef(ref) : await resolver(ref);
  } catch (error) {
    throw new ToolExecutionError(toolId, 'credential_unavailable', { cause: error });
  }
  if (secret === undefined || secret === '') {
    throw new ToolExecutionError(toolId, 'credential_unavailable');
  }
  // A secret with CR/LF would split the request it rides on; other controls cannot be sent.
  if (/[^\t\x20-\x7e\x80-\xff]/.test(secret)) {
    throw new ToolExecutionError(toolId, 'credential_invalid');
  }
  return secret;
}

/**
 * The `authorization` value for a secret: one that already names a scheme (`Basic …`,
 * `Bearer …`) is sent as is; a bare token gets `Bearer `.
 */
export function toAuthorization(secret: string): string {
  return /\s/.test(secret) ? secret : `Bearer ${secret}`;
}

/** The built-in sources: `env:NAME` or `file:/absolute/path` (64 KiB at most, trimmed). */
export async function readCredentialRef(ref: string): Promise<string | undefined> {
  if (ref.startsWith('env:')) {
    const name = ref.slice('env:'.length);
    return ENV_NAME.test(name) ? process.env[name] : undefined;
  }
  if (ref.startsWith('file:')) {
    const path = ref.slice('file:'.length);
    if (!isAbsolute(path)) return undefined;
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(MAX_SECRET_FILE_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, MAX_SECRET_FILE_BYTES, 0);
      // Files written by `echo` end in a newline that is not part of the key.
      return buffer.subarray(0, bytesRead).toString('utf8').trim();
    } finally {
      await handle.close();
    }
  }
  return undefined;
}
