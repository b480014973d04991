import { isSchemaNode } from '../schema-node.js';

/** Problems found, each a JSON path and what is wrong; empty when the schema is accepted. */
export type Violations = string[];

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
