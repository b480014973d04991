import { isSchemaNode, type SchemaNode } from '../schema-node.js';
import { jsonSchemaViolations, type Violations } from './json-schema-violations.js';

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// Kept apart from the lowering's own list on purpose: an oracle that imported it could never
// catch the lowering emitting a keyword OpenAI rejects.
const OPENAI_STRICT_KEYWORDS = new Set([
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
const OPENAI_FORMATS = new Set([
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

/** A function tool OpenAI accepts (strict or not): name, description, object parameters. */
export function openAiFunctionViolations(fn: {
  name: unknown;
  description?: unknown;
  parameters: unknown;
  strict?: unknown;
}): Violations {
  const out: Violations = [];
  if (typeof fn.name !== 'string' || !OPENAI_NAME.test(fn.name))
    out.push('name: not ^[a-zA-Z0-9_-]{1,64}$');
  if (fn.description !== undefined && typeof fn.description !== 'string')
    out.push('description: not a string');
  if (!isSchemaNode(fn.parameters) || fn.parameters['type'] !== 'object')
    out.push('parameters: root is not an object');
  out.push(...jsonSchemaViolations(fn.parameters, 'parameters'));
  if (fn.strict === true) out.push(...openAiStrictViolations(fn.parameters));
  return out;
}

/** OpenAI Structured Outputs strict mode: the "Supported schemas" rules and limits. */
export function openAiStrictViolations(schema: unknown): Violations {
  const out: Violations = [];
  if (!isSchemaNode(schema)) return ['$: not a schema'];
  if (schema['type'] !== 'object') out.push('$: root must be type object');
  if (schema['anyOf'] !== undefined) out.push('$: root must not be anyOf');
  const counts = { properties: 0, enumValues: 0 };
  walkStrict(schema, '$', 1, counts, out);
  if (counts.properties > 5000) out.push('$: more than 5000 properties');
  if (counts.enumValues > 1000) out.push('$: more than 1000 enum values');
  return out;
}

function walkStrict(
  node: SchemaNode,
  path: string,
  depth: number,
  counts: { properties: number; enumValues: number },
  out: Violations,
): void {
  for (const key of Object.keys(node)) {
    if (!OPENAI_STRICT_KEYWORDS.has(key))
      out.push(`${path}.${key}: keyword not supported in strict mode`);
  }
  const types = node['type'] === undefined ? [] : [node['type']].flat();
  const typed =
    types.length > 0 || 'anyOf' in node || 'enum' in node || 'const' in node || '$ref' in node;
  if (!typed) out.push(`${path}: every schema needs a type`);
  if (typeof node['format'] === 'string' && !OPENAI_FORMATS.has(node['format'])) {
    out.push(`${path}.format: unsupported format`);
  }
  if (Array.isArray(node['enum'])) {
    counts.enumValues += node['enum'].length;
    if (types.includes('null') && !node['enum'].includes(null))
      out.push(`${path}.enum: nullable enum without null`);
  }
  if (types.includes('object')) {
    if (depth > 10) out.push(`${path}: nested deeper than 10 levels`);
    if (node['additionalProperties'] !== false)
      out.push(`${path}.additionalProperties: must be false`);
    const properties = isSchemaNode(node['properties']) ? node['properties'] : {};
    const keys = Object.keys(properties);
    counts.properties += keys.length;
    const required = Array.isArray(node['required']) ? node['required'] : [];
    if (keys.some((key) => !required.includes(key)) || required.length !== keys.length) {
      out.push(`${path}.required: must list every property`);
    }
    for (const [key, child] of Object.entries(properties)) {
      if (isSchemaNode(child))
        walkStrict(child, `${path}.properties.${key}`, depth + 1, counts, out);
      else out.push(`${path}.properties.${key}: not a schema`);
    }
  }
  if (types.includes('array')) {
    if (isSchemaNode(node['items']))
      walkStrict(node['items'], `${path}.items`, depth + 1, counts, out);
    else out.push(`${path}.items: arrays need an items schema`);
  }
  if (Array.isArray(node['anyOf'])) {
    node['anyOf'].forEach((child, index) => {
      if (isSchemaNode(child)) walkStrict(child, `${path}.anyOf.${index}`, depth, counts, out);
    });
  }
}
