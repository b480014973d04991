/**
 * Each provider's documented tool-schema constraints as checks returning violations (a JSON path
 * and what is wrong). A schema one of these flags is one the provider would reject with a 400.
 *
 * Sources: OpenAI Structured Outputs "Supported schemas" (strict function calling); Anthropic
 * Messages `tools[].input_schema` (JSON Schema, `type: "object"`); Gemini `FunctionDeclaration`
 * and `Schema` (a select subset of OpenAPI 3.0: upper-case `Type`, `nullable`, no
 * `additionalProperties`, non-empty `properties` on OBJECT, format only `enum`/`date-time`).
 */
import { isSchemaNode, type SchemaNode } from '../schema-node.js';

type Violations = string[];

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Structural JSON Schema (2020-12) validity: the keywords we emit have the right shapes. */
export function jsonSchemaViolations(schema: unknown, path = '$'): Violations {
  if (typeof schema === 'boolean') return [];
  if (!isSchemaNode(schema)) return [`${path}: not a schema`];
  const out: Violations = [];
  const types = schema['type'] === undefined ? [] : [schema['type']].flat();
  for (const type of types) {
    if (typeof type !== 'string' || !JSON_TYPES.has(type)) out.push(`${path}.type: unknown type`);
  }
  if (Array.isArray(schema['type']) && new Set(schema['type']).size !== schema['type'].length) {
    out.push(`${path}.type: duplicate types`);
  }
  if (schema['properties'] !== undefined) {
    if (!isSchemaNode(schema['properties'])) out.push(`${path}.properties: not an object`);
    else {
      for (const [key, child] of Object.entries(schema['properties'])) {
        out.push(...jsonSchemaViolations(child, `${path}.properties.${key}`));
      }
    }
  }
  if (schema['required'] !== undefined) {
    const required = schema['required'];
    if (!Array.isArray(required) || required.some((key) => typeof key !== 'string')) {
      out.push(`${path}.required: not a string array`);
    } else if (new Set(required).size !== required.length) out.push(`${path}.required: duplicates`);
    else {
      const keys = isSchemaNode(schema['properties']) ? Object.keys(schema['properties']) : [];
      for (const key of required)
        if (!keys.includes(key)) out.push(`${path}.required: ${key} undeclared`);
    }
  }
  for (const key of ['items', 'additionalProperties', 'propertyNames'] as const) {
    if (schema[key] !== undefined) out.push(...jsonSchemaViolations(schema[key], `${path}.${key}`));
  }
  if (schema['anyOf'] !== undefined) {
    if (!Array.isArray(schema['anyOf']) || schema['anyOf'].length === 0)
      out.push(`${path}.anyOf: empty`);
    else
      schema['anyOf'].forEach((child, index) =>
        out.push(...jsonSchemaViolations(child, `${path}.anyOf.${index}`)),
      );
  }
  if (
    schema['enum'] !== undefined &&
    (!Array.isArray(schema['enum']) || schema['enum'].length === 0)
  ) {
    out.push(`${path}.enum: empty`);
  }
  for (const key of [
    'minimum',
    'maximum',
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
  ] as const) {
    if (schema[key] !== undefined && typeof schema[key] !== 'number')
      out.push(`${path}.${key}: not a number`);
  }
  for (const key of ['minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    const value = schema[key];
    if (typeof value === 'number' && !(Number.isInteger(value) && value >= 0))
      out.push(`${path}.${key}: negative`);
  }
  if (typeof schema['pattern'] === 'string') {
    try {
      new RegExp(schema['pattern'], 'u');
    } catch {
      out.push(`${path}.pattern: not a regex`);
    }
  }
  return out;
}

// ── OpenAI ───────────────────────────────────────────────────────────────────────────────────

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
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

// ── Anthropic ────────────────────────────────────────────────────────────────────────────────

/** An Anthropic custom tool: name pattern, object `input_schema`, valid JSON Schema. */
export function anthropicViolations(tool: Record<string, unknown>): Violations {
  const out: Violations = [];
  if (typeof tool['name'] !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool['name'])) {
    out.push('name: not ^[a-zA-Z0-9_-]{1,64}$');
  }
  if (tool['description'] !== undefined && typeof tool['description'] !== 'string')
    out.push('description: not a string');
  const schema = tool['input_schema'];
  if (!isSchemaNode(schema) || schema['type'] !== 'object')
    out.push('input_schema: type must be object');
  out.push(...jsonSchemaViolations(schema, 'input_schema'));
  for (const key of Object.keys(tool)) {
    if (!['name', 'description', 'input_schema', 'type', 'cache_control', 'strict'].includes(key)) {
      out.push(`${key}: unknown tool field`);
    }
  }
  return out;
}

// ── Gemini ───────────────────────────────────────────────────────────────────────────────────

const GEMINI_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const GEMINI_PROPERTY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);
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
