import { argsSchemaOf } from '../args-schema-of.js';
import type { AnyToolDef } from '../tool-def.js';
import { zodObjectKeys } from './zod-object-keys.js';

/**
 * Every top-level parameter key a tool declares, config-only ones included (a config value can
 * be tainted too). Read from the zod schema `defineTool` recorded, else from the tool's JSON
 * Schema `properties`. `undefined` when neither says: the caller denies, never guesses.
 */
export function toolParamKeys(def: AnyToolDef): ReadonlySet<string> | undefined {
  const schema = argsSchemaOf(def);
  const declared = schema === undefined ? jsonSchemaKeys(def) : zodObjectKeys(schema);
  if (declared === undefined) return undefined;
  return new Set([...declared, ...(def.configOnlyParams ?? [])]);
}

function jsonSchemaKeys(def: AnyToolDef): ReadonlySet<string> | undefined {
  let schema: unknown;
  try {
    schema = def.llmVisibleParams;
  } catch {
    // A schema that cannot be derived names no keys we could trust.
    return undefined;
  }
  if (!isRecord(schema)) return undefined;
  if (schema['type'] !== undefined && schema['type'] !== 'object') return undefined;
  const properties = schema['properties'];
  if (!isRecord(properties)) return undefined;
  return new Set(Object.keys(properties));
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
