import { readFile } from 'node:fs/promises';
import type { CredentialSource } from '../config/config-schema.js';

/**
 * Resolves a named `credentialRef` from the config's `credentials` table, inside the host. Only
 * named credentials resolve: a model can never point the host at an arbitrary variable or file.
 */
export function createCredentialResolver(
  credentials: Readonly<Record<string, CredentialSource>>,
): (ref: string) => Promise<string> {
  return async (ref) => {
    const source = Object.hasOwn(credentials, ref) ? credentials[ref] : undefined;
    if (source === undefined) throw new Error('toolhost: unknown credential name');
    if ('env' in source) {
      const value = process.env[source.env];
      if (value === undefined || value === '') throw new Error('toolhost: credential not set');
      return value;
    }
    const text = await readFile(source.file, 'utf8');
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    if (firstLine === '') throw new Error('toolhost: credential file is empty');
    return firstLine;
  };
}
