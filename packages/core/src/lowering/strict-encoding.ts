import { isSchemaNode, propertiesOf, requiredOf, typesOf, type SchemaNode } from './schema-node.js';

/**
 * How a value of one (original) schema node travels in OpenAI strict mode. `plain`: as itself.
 * `pairs`: a free-key map, as a list of `{ name, value }` pairs. `json`: free-form JSON, as a
 * string holding the JSON text. `or_null`: an `anyOf` of one branch that needs restoring and
 * `null`. The strict lowering and `fromOpenAiStrictArgs` both decide by this one function, so what
 * one encodes the other decodes.
 */
export type StrictEncoding = 'plain' | 'pairs' | 'json' | 'or_null';

/** The wire encoding of a value of `node` in strict mode. */
export function strictEncodingOf(node: unknown): StrictEncoding {
  if (node === true) return 'json';
  if (!isSchemaNode(node)) return 'plain';
  if (isUntyped(node)) return 'json';
  const types = typesOf(node);
  if (types.includes('object') && isOpenMap(node)) {
    // A map with declared keys too (a loose or catchall object) has no pair form.
    if (Object.keys(propertiesOf(node)).length > 0) return 'json';
    if (types.some((type) => type !== 'object' && type !== 'null')) return 'json';
    const additional = node['additionalProperties'];
    return strictEncodingOf(additional) === 'json' ? 'json' : 'pairs';
  }
  if (types.includes('array')) {
    const items = node['items'];
    // A tuple (`prefixItems`) or an array of anything has no strict item schema.
    if ('prefixItems' in node || !(isSchemaNode(items) || items === true)) return 'json';
  }
  const anyOf = node['anyOf'];
  if (Array.isArray(anyOf)) {
    if (anyOf.every(restoresAsItself)) return 'plain';
    // Strict mode hands back no branch tag: only `X | null` is told apart by the value alone.
    const others = anyOf.filter((branch) => !isNullBranch(branch));
    return others.length === 1 && others.length < anyOf.length ? 'or_null' : 'json';
  }
  return 'plain';
}

/** The one branch of an `or_null` node that is not `null`. */
export function nonNullBranch(node: SchemaNode): unknown {
  const anyOf = node['anyOf'];
  return Array.isArray(anyOf) ? anyOf.find((branch) => !isNullBranch(branch)) : undefined;
}

/** True when the schema says nothing about its value's type: any JSON is allowed. */
function isUntyped(node: SchemaNode): boolean {
  return (
    typesOf(node).length === 0 &&
    !('anyOf' in node) &&
    !('enum' in node) &&
    !('const' in node) &&
    !('$ref' in node)
  );
}

function isOpenMap(node: SchemaNode): boolean {
  const additional = node['additionalProperties'];
  return additional !== undefined && additional !== false;
}

function isNullBranch(branch: unknown): boolean {
  if (!isSchemaNode(branch)) return false;
  const types = typesOf(branch);
  return types.length === 1 && types[0] === 'null' && !('anyOf' in branch);
}

/**
 * True when a strict model's value for this schema is already the value meant: no pairs, no JSON
 * text and no optional key (whose `null` would need removing), at any depth. Only such branches
 * may sit in an `anyOf`, because the way back cannot tell which branch a value came from.
 */
function restoresAsItself(node: unknown): boolean {
  if (!isSchemaNode(node) || '$ref' in node) return false;
  if (strictEncodingOf(node) !== 'plain') return false;
  const properties = propertiesOf(node);
  const required = new Set(requiredOf(node));
  for (const [key, child] of Object.entries(properties)) {
    if (!required.has(key) || !restoresAsItself(child)) return false;
  }
  const items = node['items'];
  if (items !== undefined && !restoresAsItself(items)) return false;
  const anyOf = node['anyOf'];
  return !Array.isArray(anyOf) || anyOf.every(restoresAsItself);
}
