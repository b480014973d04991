import type { JsonSchema } from '../tool-def.js';
import {
  cloneJson,
  isSchemaNode,
  propertiesOf,
  requiredOf,
  typesOf,
  withoutNoise,
  type SchemaNode,
} from './schema-node.js';

/** The Gemini `Schema` fields this lowering emits (a select subset of OpenAPI 3.0). */
export const GEMINI_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
]);

/** Gemini's `Type` enum names for the JSON Schema type words. */
const GEMINI_TYPES: Readonly<Record<string, string>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

/** String formats the Gemini Developer API accepts; any other fails the request. */
const GEMINI_FORMATS: ReadonlySet<string> = new Set(['enum', 'date-time']);

/**
 * Lowers a tool's parameter schema to Gemini's OpenAPI subset: upper-case `type`, unions with
 * `null` as `nullable`, `const` as a one-value `enum`, and no `additionalProperties`, `$schema`,
 * exclusive bounds, string-length or pattern keywords. Returns `undefined` for an object with no
 * properties: Gemini rejects an empty `properties` map, and a function without parameters
 * leaves `parameters` unset.
 */
export function toGeminiSchema(schema: JsonSchema): SchemaNode | undefined {
  const lowered = lowerNode(cloneJson(schema) as SchemaNode);
  return lowered['properties'] === undefined ? undefined : lowered;
}

function lowerNode(input: SchemaNode): SchemaNode {
  const node = withoutNoise(input);
  const out: SchemaNode = {};
  if (typeof node['description'] === 'string') out['description'] = node['description'];
  const types = typesOf(node);
  const nonNull = types.filter((type) => type !== 'null');
  if (types.includes('null')) out['nullable'] = true;
  if (nonNull.length > 1) {
    // A union of several types: Gemini spells it as anyOf.
    out['anyOf'] = nonNull.map((type) => lowerNode({ ...node, type, description: undefined }));
    return out;
  }
  const type = nonNull[0];
  if (type !== undefined && GEMINI_TYPES[type] !== undefined) out['type'] = GEMINI_TYPES[type];
  lowerValues(node, out);
  if (type === 'object') lowerObject(node, out);
  if (type === 'array' && isSchemaNode(node['items'])) out['items'] = lowerNode(node['items']);
  for (const key of ['minItems', 'maxItems', 'minimum', 'maximum'] as const) {
    if (typeof node[key] === 'number') out[key] = node[key];
  }
  const format = node['format'];
  if (typeof format === 'string' && GEMINI_FORMATS.has(format)) out['format'] = format;
  if (Array.isArray(node['anyOf'])) {
    const branches = node['anyOf'].filter(isSchemaNode);
    const nullBranch = branches.some((branch) => typesOf(branch).includes('null'));
    const rest = branches.filter((branch) => !typesOf(branch).includes('null')).map(lowerNode);
    if (nullBranch) out['nullable'] = true;
    if (rest.length === 1) Object.assign(out, { ...rest[0], ...out });
    else if (rest.length > 1) out['anyOf'] = rest;
  }
  return out;
}

function lowerValues(node: SchemaNode, out: SchemaNode): void {
  // Gemini enums are strings only; a number or boolean enum is left to parseArgs to check.
  const values = Array.isArray(node['enum'])
    ? node['enum']
    : 'const' in node
      ? [node['const']]
      : [];
  const strings = values.filter((value): value is string => typeof value === 'string');
  if (values.includes(null)) out['nullable'] = true;
  if (strings.length > 0 && strings.length === values.filter((value) => value !== null).length) {
    out['type'] = 'STRING';
    out['enum'] = strings;
  }
}

function lowerObject(node: SchemaNode, out: SchemaNode): void {
  const entries = Object.entries(propertiesOf(node)).filter(([, child]) => isSchemaNode(child));
  // An open map (a record) has no Gemini spelling: an OBJECT without properties stays open.
  if (entries.length === 0) return;
  out['properties'] = Object.fromEntries(
    entries.map(([key, child]) => [key, lowerNode(child as SchemaNode)]),
  );
  const keys = new Set(entries.map(([key]) => key));
  const required = requiredOf(node).filter((key) => keys.has(key));
  if (required.length > 0) out['required'] = required;
}
