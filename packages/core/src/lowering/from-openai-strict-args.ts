import { ToolArgsInvalidError } from '../errors.js';
import type { ToolId } from '../tool-def.js';
import type { LowerableTool } from './to-provider-tools.js';
import { isSchemaNode, propertiesOf, requiredOf, typesOf, type SchemaNode } from './schema-node.js';
import { nonNullBranch, strictEncodingOf } from './strict-encoding.js';

/**
 * The inverse of the strict lowering, read off the ORIGINAL schema: each `null` on a key that
 * schema does not require (and does not itself allow to be null) is removed, a list of
 * `{ name, value }` pairs becomes the map it stands for, and a string of JSON text becomes its
 * value. The result goes to `parseArgs` as usual; nothing else is changed, so a wrong value still
 * fails validation. A pair list naming a key twice, or JSON text that does not parse, throws
 * `ToolArgsInvalidError` (loop-correctable, like any invalid argument).
 */
export function fromOpenAiStrictArgs(
  tool: Pick<LowerableTool, 'id' | 'llmVisibleParams'>,
  args: unknown,
): unknown {
  const root = tool.llmVisibleParams as SchemaNode;
  // The root is always the arguments object itself, whatever its encoding would be inside.
  if (!isSchemaNode(args) || Array.isArray(args)) return args;
  return restoreObject(root, args, '', { toolId: tool.id, root });
}

interface RestoreContext {
  readonly toolId: ToolId;
  readonly root: SchemaNode;
}

// A `$ref` chain longer than this is a cycle of references with no value in between.
const MAX_REF_HOPS = 32;

function restore(schema: unknown, value: unknown, path: string, ctx: RestoreContext): unknown {
  const node = resolveRef(schema === true ? {} : schema, ctx.root);
  if (node === undefined) return value;
  switch (strictEncodingOf(node)) {
    case 'json':
      return typeof value === 'string' ? parseJsonText(value, path, ctx) : value;
    case 'pairs':
      return Array.isArray(value) ? fromPairs(node, value, path, ctx) : value;
    case 'or_null':
      return value === null ? value : restore(nonNullBranch(node), value, path, ctx);
    case 'plain':
      break;
  }
  if (Array.isArray(value)) {
    const items = node['items'];
    return items === undefined
      ? value
      : value.map((item, index) => restore(items, item, join(path, String(index)), ctx));
  }
  return isSchemaNode(value) ? restoreObject(node, value, path, ctx) : value;
}

function restoreObject(
  schema: SchemaNode,
  value: Record<string, unknown>,
  path: string,
  ctx: RestoreContext,
): Record<string, unknown> {
  const properties = propertiesOf(schema);
  const required = new Set(requiredOf(schema));
  const entries: [string, unknown][] = [];
  for (const [key, entry] of Object.entries(value)) {
    const child = Object.hasOwn(properties, key) ? properties[key] : undefined;
    // Only a declared key is restored; an undeclared one stays for parseArgs to refuse.
    if (child === undefined) {
      entries.push([key, entry]);
      continue;
    }
    const omitted = !required.has(key) && !admitsNull(resolveRef(child, ctx.root));
    if (entry === null && omitted) continue;
    entries.push([key, restore(child, entry, join(path, key), ctx)]);
  }
  // fromEntries defines own keys: a `__proto__` key stays a key and never becomes the prototype.
  return Object.fromEntries(entries);
}

function fromPairs(
  schema: SchemaNode,
  pairs: readonly unknown[],
  path: string,
  ctx: RestoreContext,
): Record<string, unknown> {
  const seen = new Set<string>();
  const entries = pairs.map((pair, index): [string, unknown] => {
    const at = join(path, String(index));
    if (!isPair(pair)) throw invalid(ctx, at, 'not_a_name_value_pair');
    // Keeping either of two values would be a guess at what the model meant.
    if (seen.has(pair.name)) throw invalid(ctx, at, 'duplicate_name');
    seen.add(pair.name);
    return [pair.name, restore(schema['additionalProperties'], pair.value, at, ctx)];
  });
  return Object.fromEntries(entries);
}

function isPair(value: unknown): value is { name: string; value: unknown } {
  return (
    isSchemaNode(value) &&
    typeof value['name'] === 'string' &&
    Object.hasOwn(value, 'value') &&
    Object.keys(value).length === 2
  );
}

function parseJsonText(text: string, path: string, ctx: RestoreContext): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // No cause: the parser's message quotes the text, which is the model's raw value.
    throw invalid(ctx, path, 'not_json_text');
  }
}

function invalid(ctx: RestoreContext, field: string, problem: string): ToolArgsInvalidError {
  return new ToolArgsInvalidError(ctx.toolId, [
    { field: field === '' ? '(root)' : field, problem },
  ]);
}

/** Follows local `#…` references to the schema they name; `undefined` when there is none. */
function resolveRef(schema: unknown, root: SchemaNode): SchemaNode | undefined {
  let node = schema;
  for (let hops = 0; isSchemaNode(node) && typeof node['$ref'] === 'string'; hops += 1) {
    if (hops === MAX_REF_HOPS) return undefined;
    node = pointerTarget(root, node['$ref']);
  }
  return isSchemaNode(node) ? node : undefined;
}

function pointerTarget(root: SchemaNode, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const step = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isSchemaNode(node) && Object.hasOwn(node, step) ? node[step] : undefined;
  }
  return node;
}

function admitsNull(schema: SchemaNode | undefined): boolean {
  if (schema === undefined) return false;
  if (typesOf(schema).includes('null')) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  const anyOf = schema['anyOf'];
  return Array.isArray(anyOf) && anyOf.some((branch) => isSchemaNode(branch) && admitsNull(branch));
}

function join(path: string, segment: string): string {
  return path === '' ? segment : `${path}.${segment}`;
}
