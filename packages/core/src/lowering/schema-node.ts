/** A mutable JSON Schema node while lowering; the input schemas themselves are never touched. */
export type SchemaNode = Record<string, unknown>;

/** True for a plain JSON object (a schema node or a map of them). */
export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node's `properties` map, or an empty one. */
export function propertiesOf(node: SchemaNode): Record<string, unknown> {
  const properties = node['properties'];
  return isSchemaNode(properties) ? properties : {};
}

/** The node's `required` keys, or none. */
export function requiredOf(node: SchemaNode): string[] {
  const required = node['required'];
  return Array.isArray(required)
    ? required.filter((key): key is string => typeof key === 'string')
    : [];
}

/** The node's `type` as a list (`'string'` → `['string']`, absent → `[]`). */
export function typesOf(node: SchemaNode): string[] {
  const type = node['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type)
    ? type.filter((entry): entry is string => typeof entry === 'string')
    : [];
}

/** A deep, mutable copy of JSON data, so a provider SDK that edits its input edits only its copy. */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Drops what no provider needs: the `$schema` dialect and zod's integer bounds of
 * ±`Number.MAX_SAFE_INTEGER`, which are noise a model pays tokens for.
 */
export function withoutNoise(node: SchemaNode): SchemaNode {
  const { $schema: _dialect, ...rest } = node;
  if (rest['maximum'] === Number.MAX_SAFE_INTEGER) delete rest['maximum'];
  if (rest['minimum'] === Number.MIN_SAFE_INTEGER) delete rest['minimum'];
  return rest;
}

/** Applies `lower` to every child schema a node holds (properties, items, anyOf, $defs). */
export function mapChildren(
  node: SchemaNode,
  lower: (child: SchemaNode) => SchemaNode,
): SchemaNode {
  const out: SchemaNode = { ...node };
  if (isSchemaNode(node['properties'])) {
    out['properties'] = Object.fromEntries(
      Object.entries(node['properties']).map(([key, child]) => [key, lowerChild(child, lower)]),
    );
  }
  if (isSchemaNode(node['items'])) out['items'] = lower(node['items']);
  if (Array.isArray(node['anyOf']))
    out['anyOf'] = node['anyOf'].map((child) => lowerChild(child, lower));
  for (const key of ['$defs', 'definitions']) {
    const defs = node[key];
    if (isSchemaNode(defs)) {
      out[key] = Object.fromEntries(
        Object.entries(defs).map(([name, child]) => [name, lowerChild(child, lower)]),
      );
    }
  }
  return out;
}

function lowerChild(child: unknown, lower: (child: SchemaNode) => SchemaNode): unknown {
  // `true` / `{}` mean "anything": handed to `lower` as an empty node so it can decide.
  return isSchemaNode(child) ? lower(child) : child === true ? lower({}) : child;
}
