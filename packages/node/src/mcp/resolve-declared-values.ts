import { readCredentialRef } from '../egress/resolve-credential.js';
import type { DeclaredValue } from './mcp-arm-options.js';

/** The variables a stdio server inherits; everything else must be declared. */
export const MCP_BASE_ENV_KEYS: readonly string[] = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TERM',
];

/** Resolves declared values, reading each `credentialRef` inside the host boundary. */
export async function resolveDeclaredValues(
  declared: Readonly<Record<string, DeclaredValue>> | undefined,
  resolveCredential: (ref: string) => string | Promise<string>,
): Promise<Record<string, string>> {
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(declared ?? {})) {
    resolved[key] =
      typeof value === 'string' ? value : await resolveCredential(value.credentialRef);
  }
  return resolved;
}

/** The minimal base env plus the declared values: the ambient environment never leaks in. */
export function buildMcpServerEnv(
  declared: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of MCP_BASE_ENV_KEYS) {
    const value = process.env[key];
    // A bash exported function (`() {…}`) in a base var is how Shellshock-style payloads ride in.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return { ...env, ...declared };
}

/** The default `credentialRef` resolver: `env:NAME` or `file:/absolute/path`. */
export async function resolveCredentialRef(ref: string): Promise<string> {
  const value = await readCredentialRef(ref).catch(() => undefined);
  // A NUL cannot ride in an environment block, and spawn's own error would quote the value.
  if (value !== undefined && value !== '' && !value.includes('\0')) return value;
  // The ref is config, not a secret, but it can name a path: keep it off the message.
  throw new Error('toolhost: an mcp credentialRef could not be resolved');
}
