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
import { strictEncodingOf } from './strict-encoding.js';

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

/** Told to the model beside a map lowered to pairs: the pairs are the map's entries. */
export const PAIRS_HINT = 'Sent as a list of {name, value} pairs, each name at most once.';

/** Told to the model beside free-form JSON lowered to a string. */
export const JSON_HINT = 'Sent as a string holding the JSON text of the value.';

/**
 * Lowers a tool's parameter schema to OpenAI strict mode: every property required, the optional
 * ones nullable, `additionalProperties: false` on every object, unsupported keywords dropped.
 * What strict mode cannot spell is re-encoded (see `strictEncodingOf`): a free-key map becomes a
 * list of `{ name, value }` pairs, free-form JSON a string of JSON text; `fromOpenAiStrictArgs`
 * turns both back. Returns `undefined` only when the root itself is not a closed object: the
 * caller then sends the tool with `strict: false`.
 */
export function toOpenAiStrictSchema(schema: JsonSchema): SchemaNode | undefined {
  const root = withoutNoise(cloneJson(schema) as SchemaNode);
  // The model's arguments are the root object itself: it cannot be re-encoded as a string.
  if (strictEncodingOf(root) !== 'plain' || root['anyOf'] !== undefined) return undefined;
  const lowered = lowerNode(root);
  return typesOf(lowered).includes('object') ? lowered : undefined;
}

function lowerNode(input: SchemaNode): SchemaNode {
  const node = withoutNoise(input);
  const encoding = strictEncodingOf(node);
  if (encoding === 'json') return jsonText(node);
  if (encoding === 'pairs') return pairList(node);
  // `items: true` is "any item": lowered like `{}`, each item as JSON text.
  if (node['items'] === true) node['items'] = {};
  const lowered = mapChildren(node, lowerNode);
  const types = typesOf(lowered);
  if (types.includes('object')) lowerObject(lowered);
  const format = lowered['format'];
  if (typeof format === 'string' && !OPENAI_STRICT_FORMATS.has(format)) delete lowered['format'];
  for (const key of Object.keys(lowered)) if (!OPENAI_STRICT_KEYWORDS.has(key)) delete lowered[key];
  return lowered;
}

function lowerObject(node: SchemaNode): void {
  const properties = propertiesOf(node);
  const required = new Set(requiredOf(node));
  for (const [key, child] of Object.entries(properties)) {
    if (!required.has(key) && isSchemaNode(child)) properties[key] = nullable(child);
  }
  node['properties'] = properties;
  node['required'] = Object.keys(properties);
  node['additionalProperties'] = false;
}

function jsonText(node: SchemaNode): SchemaNode {
  return {
    type: typesOf(node).includes('null') ? ['string', 'null'] : 'string',
    description: withHint(node['description'], JSON_HINT),
  };
}

function pairList(node: SchemaNode): SchemaNode {
  const keys = isSchemaNode(node['propertyNames']) ? node['propertyNames'] : {};
  const values = node['additionalProperties'];
  const out: SchemaNode = {
    type: typesOf(node).includes('null') ? ['array', 'null'] : 'array',
    description: withHint(node['description'], PAIRS_HINT),
    items: {
      type: 'object',
      properties: {
        name: lowerNode({ ...keys, type: 'string' }),
        value: lowerNode(isSchemaNode(values) ? values : {}),
      },
      required: ['name', 'value'],
      additionalProperties: false,
    },
  };
  // A map's entry bounds are a list's length bounds, which strict mode does support.
  if (typeof node['minProperties'] === 'number') out['minItems'] = node['minProperties'];
  if (typeof node['maxProperties'] === 'number') out['maxItems'] = node['maxProperties'];
  return out;
}

function withHint(description: unknown, hint: string): string {
  return typeof description === 'string' && description !== '' ? `${description} ${hint}` : hint;
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
