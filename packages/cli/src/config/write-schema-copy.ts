import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigJsonSchema } from './config-json-schema.js';

/** The schema copy `toolhost init` writes beside the config; its `$schema` names it relatively. */
export const SCHEMA_COPY_NAME = 'toolhost.config.schema.json';

/** What became of the copy: written fresh, or a foreign file of that name left alone. */
export type SchemaCopyOutcome = 'written' | 'kept_foreign_file';

/**
 * Writes the config's JSON Schema next to it, so `"$schema": "./toolhost.config.schema.json"`
 * resolves wherever the config sits: no node_modules, no machine-specific absolute path in a
 * file that gets committed, nothing fetched. Generated from the same zod schema as the published
 * file. An older copy of ours is replaced (an upgrade widens it); any other file of that name is
 * the user's and is kept.
 */
export function writeSchemaCopy(directory: string): SchemaCopyOutcome {
  const file = path.join(directory, SCHEMA_COPY_NAME);
  const text = renderConfigJsonSchema();
  try {
    writeFileSync(file, text, { flag: 'wx' });
    return 'written';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (!isOurSchema(file)) return 'kept_foreign_file';
  writeFileSync(file, text);
  return 'written';
}

function isOurSchema(file: string): boolean {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      (parsed as { title?: unknown }).title === 'toolhost.config.json'
    );
  } catch {
    return false;
  }
}
