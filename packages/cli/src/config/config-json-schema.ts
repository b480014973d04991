import { z } from 'zod';
import { toolhostConfigSchema } from './config-schema.js';

/** Where the published schema lives, relative to the cli package. */
export const CONFIG_SCHEMA_PATH = 'schema/toolhost.config.schema.json';

/** The published JSON Schema of `toolhost.config.json`, generated from the zod schema. */
export function renderConfigJsonSchema(): string {
  const schema = z.toJSONSchema(toolhostConfigSchema, { io: 'input', unrepresentable: 'throw' });
  return `${JSON.stringify({ ...schema, title: 'toolhost.config.json' }, null, 2)}\n`;
}
