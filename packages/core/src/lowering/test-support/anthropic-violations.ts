import { isSchemaNode } from '../schema-node.js';
import { jsonSchemaViolations, type Violations } from './json-schema-violations.js';

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
