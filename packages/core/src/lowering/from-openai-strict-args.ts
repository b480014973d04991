import type { JsonSchema } from '../tool-def.js';
import { isSchemaNode, propertiesOf, requiredOf, typesOf, type SchemaNode } from './schema-node.js';

/**
 * The inverse of the strict lowering: strict mode makes a model send `null` for every optional
 * key it means to omit, so each `null` on a key the ORIGINAL schema does not require (and does
 * not itself allow to be null) is removed, recursively. The result goes to `parseArgs` as usual;
 * nothing else is changed, so a wrong value still fails validation.
 */
export function fromOpenAiStrictArgs(
  tool: { readonly llmVisibleParams: JsonSchema },
  args: unknown,
): unknown {
  return restore(tool.llmVisibleParams as SchemaNode, args);
}

function restore(schema: SchemaNode, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema['items'];
    return isSchemaNode(items) ? value.map((item) => restore(items, item)) : value;
  }
  if (!isSchemaNode(value)) return value;
  const properties = propertiesOf(schema);
  const required = new Set(requiredOf(schema));
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const child = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const childSchema = isSchemaNode(child) ? child : undefined;
    // Only a declared optional key is restored; an undeclared one stays for parseArgs to refuse.
    const omitted = childSchema !== undefined && !required.has(key) && !admitsNull(childSchema);
    if (entry === null && omitted) continue;
    out[key] = childSchema === undefined ? entry : restore(childSchema, entry);
  }
  return out;
}

function admitsNull(schema: SchemaNode | undefined): boolean {
  if (schema === undefined) return false;
  if (typesOf(schema).includes('null')) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  const anyOf = schema['anyOf'];
  return Array.isArray(anyOf) && anyOf.some((branch) => isSchemaNode(branch) && admitsNull(branch));
}
