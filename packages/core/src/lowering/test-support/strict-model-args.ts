import { isSchemaNode, propertiesOf, typesOf, type SchemaNode } from '../schema-node.js';
import { JSON_HINT } from '../to-openai-strict-schema.js';

/**
 * What a strict-mode model sends to mean `intended`, read off the LOWERED schema alone, as the
 * model reads it: every key present (`null` for one it omits), a map as the `{ name, value }`
 * list the schema asks for, and JSON text where the description asks for it. Built apart from
 * the lowering and its inverse, so a round trip through it checks both.
 */
export function asStrictModelArgs(lowered: unknown, intended: unknown): unknown {
  if (intended === undefined) return null;
  if (!isSchemaNode(lowered)) return intended;
  const anyOf = lowered['anyOf'];
  if (Array.isArray(anyOf)) {
    const branches = anyOf.filter(isSchemaNode);
    // A value re-encoded by its branch (pairs, JSON text) matches no type there: the non-null one.
    const branch =
      branches.find((candidate) => admits(candidate, intended)) ??
      branches.find((candidate) => !typesOf(candidate).includes('null'));
    return asStrictModelArgs(branch, intended);
  }
  const types = typesOf(lowered);
  const description = lowered['description'];
  if (
    types.includes('string') &&
    typeof description === 'string' &&
    description.endsWith(JSON_HINT)
  )
    return JSON.stringify(intended);
  const items = lowered['items'];
  if (types.includes('array') && isPairItems(items) && isPlainObject(intended)) {
    const valueSchema = propertiesOf(items)['value'];
    return Object.entries(intended).map(([name, value]) => ({
      name,
      value: asStrictModelArgs(valueSchema, value),
    }));
  }
  if (Array.isArray(intended)) return intended.map((item) => asStrictModelArgs(items, item));
  if (isPlainObject(intended) && types.includes('object')) {
    return Object.fromEntries(
      Object.entries(propertiesOf(lowered)).map(([key, child]) => [
        key,
        asStrictModelArgs(child, Object.hasOwn(intended, key) ? intended[key] : undefined),
      ]),
    );
  }
  return intended;
}

function isPairItems(items: unknown): items is SchemaNode {
  return (
    isSchemaNode(items) &&
    Object.keys(propertiesOf(items)).sort().join() === 'name,value' &&
    items['additionalProperties'] === false
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function admits(branch: SchemaNode, value: unknown): boolean {
  const types = typesOf(branch);
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'object') return types.includes('object');
  if (typeof value === 'number') return types.includes('number') || types.includes('integer');
  return types.includes(typeof value);
}
