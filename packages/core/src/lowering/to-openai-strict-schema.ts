import type { JsonSchema } from '../tool-def.js';
import {
  cloneJson,
  isSchemaNode,
  mapChildren,
  propertiesOf,
  requiredOf,
  typesOf,
  withoutNoise,
  type SchemaNode,
} from './schema-node.js';

/** Keywords OpenAI Structured Outputs accepts in strict mode (its "Supported schemas" list). */
export const OPENAI_STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$defs',
  '$ref',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/** String formats strict mode supports; any other is dropped (parseArgs still checks it). */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * Lowers a tool's parameter schema to OpenAI strict mode: every property required, the optional
 * ones nullable, `additionalProperties: false` on every object, unsupported keywords dropped.
 * Returns `undefined` when the schema has an open part strict mode cannot express (a record,
 * an untyped value): the caller then sends the tool with `strict: false`.
 */
export function toOpenAiStrictSchema(schema: JsonSchema): SchemaNode | undefined {
  try {
    const lowered = lowerNode(cloneJson(schema) as SchemaNode);
    return typesOf(lowered).includes('object') && lowered['anyOf'] === undefined
      ? lowered
      : undefined;
  } catch (error) {
    if (error === NOT_STRICT) return undefined;
    throw error;
  }
}

// A sentinel, not an Error: it only unwinds the recursion and never leaves this module.
const NOT_STRICT: unique symbol = Symbol('not-strict');

function lowerNode(input: SchemaNode): SchemaNode {
  const node = mapChildren(withoutNoise(input), lowerNode);
  const types = typesOf(node);
  const typed = types.length > 0 || 'anyOf' in node || 'enum' in node || 'const' in node;
  if (!typed && !('$ref' in node)) throw NOT_STRICT;
  if (types.includes('object')) lowerObject(node);
  if (types.includes('array') && !isSchemaNode(node['items'])) throw NOT_STRICT;
  const format = node['format'];
  if (typeof format === 'string' && !OPENAI_STRICT_FORMATS.has(format)) delete node['format'];
  for (const key of Object.keys(node)) if (!OPENAI_STRICT_KEYWORDS.has(key)) delete node[key];
  return node;
}

function lowerObject(node: SchemaNode): void {
  const additional = node['additionalProperties'];
  // A map with free keys (a record, `additionalProperties: {…}`) has no strict equivalent.
  if (additional !== undefined && additional !== false) throw NOT_STRICT;
  const properties = propertiesOf(node);
  const required = new Set(requiredOf(node));
  for (const [key, child] of Object.entries(properties)) {
    if (!required.has(key) && isSchemaNode(child)) properties[key] = nullable(child);
  }
  node['properties'] = properties;
  node['required'] = Object.keys(properties);
  node['additionalProperties'] = false;
}

/** The same schema that also admits `null` (how strict mode spells "optional"). */
function nullable(node: SchemaNode): SchemaNode {
  if (Array.isArray(node['anyOf'])) {
    const branches = node['anyOf'] as unknown[];
    const hasNull = branches.some(
      (branch) => isSchemaNode(branch) && typesOf(branch).includes('null'),
    );
    return hasNull ? node : { ...node, anyOf: [...branches, { type: 'null' }] };
  }
  if ('const' in node || '$ref' in node) {
    const { description, ...rest } = node;
    return {
      ...(description === undefined ? {} : { description }),
      anyOf: [rest, { type: 'null' }],
    };
  }
  const types = typesOf(node);
  const out: SchemaNode = { ...node };
  if (types.length > 0 && !types.includes('null')) out['type'] = [...types, 'null'];
  // An enum is checked on its own: null has to be one of its values too.
  if (Array.isArray(node['enum']) && !node['enum'].includes(null))
    out['enum'] = [...node['enum'], null];
  return out;
}
