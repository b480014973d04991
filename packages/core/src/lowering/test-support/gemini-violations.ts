import { isSchemaNode, type SchemaNode } from '../schema-node.js';
import type { Violations } from './json-schema-violations.js';

const GEMINI_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const GEMINI_PROPERTY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);
// Kept apart from the lowering's own list on purpose: an oracle that imported it could never
// catch the lowering emitting a field Gemini rejects.
const GEMINI_KEYWORDS = new Set([
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
  'propertyOrdering',
]);

/** A Gemini `Tool` with `functionDeclarations`, each parameter schema in the OpenAPI subset. */
export function geminiViolations(tool: Record<string, unknown>): Violations {
  const out: Violations = [];
  const declarations = tool['functionDeclarations'];
  if (!Array.isArray(declarations)) return ['functionDeclarations: not an array'];
  declarations.forEach((declaration: unknown, index) => {
    const path = `functionDeclarations.${index}`;
    if (!isSchemaNode(declaration)) {
      out.push(`${path}: not an object`);
      return;
    }
    const name = declaration['name'];
    if (typeof name !== 'string' || !GEMINI_NAME.test(name)) out.push(`${path}.name: invalid`);
    if (typeof declaration['description'] !== 'string') out.push(`${path}.description: required`);
    const parameters = declaration['parameters'];
    if (parameters !== undefined) {
      if (!isSchemaNode(parameters) || parameters['type'] !== 'OBJECT')
        out.push(`${path}.parameters: must be OBJECT`);
      else walkGemini(parameters, `${path}.parameters`, out);
    }
  });
  return out;
}

function walkGemini(node: SchemaNode, path: string, out: Violations): void {
  for (const key of Object.keys(node)) {
    if (!GEMINI_KEYWORDS.has(key)) out.push(`${path}.${key}: unknown Schema field`);
  }
  const type = node['type'];
  if (node['anyOf'] === undefined && (typeof type !== 'string' || !GEMINI_TYPES.has(type))) {
    out.push(`${path}.type: not a Gemini Type`);
  }
  if (node['nullable'] !== undefined && typeof node['nullable'] !== 'boolean')
    out.push(`${path}.nullable: not boolean`);
  if (node['format'] !== undefined && node['format'] !== 'enum' && node['format'] !== 'date-time') {
    out.push(`${path}.format: only enum or date-time`);
  }
  if (node['enum'] !== undefined) {
    const values = node['enum'];
    if (
      !Array.isArray(values) ||
      values.length === 0 ||
      values.some((value) => typeof value !== 'string')
    ) {
      out.push(`${path}.enum: must be non-empty strings`);
    }
  }
  if (node['properties'] !== undefined) {
    const properties = node['properties'];
    if (!isSchemaNode(properties) || Object.keys(properties).length === 0) {
      out.push(`${path}.properties: should be non-empty for OBJECT type`);
    } else {
      for (const [key, child] of Object.entries(properties)) {
        if (!GEMINI_PROPERTY.test(key))
          out.push(`${path}.properties.${key}: invalid property name`);
        if (isSchemaNode(child)) walkGemini(child, `${path}.properties.${key}`, out);
      }
    }
  }
  if (node['required'] !== undefined) {
    const keys = isSchemaNode(node['properties']) ? Object.keys(node['properties']) : [];
    const required = node['required'];
    if (!Array.isArray(required) || required.some((key) => !keys.includes(key as string))) {
      out.push(`${path}.required: names an undeclared property`);
    }
  }
  if (type === 'ARRAY') {
    if (isSchemaNode(node['items'])) walkGemini(node['items'], `${path}.items`, out);
    else out.push(`${path}.items: ARRAY needs items`);
  }
  if (Array.isArray(node['anyOf'])) {
    node['anyOf'].forEach((child, index) => {
      if (isSchemaNode(child)) walkGemini(child, `${path}.anyOf.${index}`, out);
    });
  }
}
