import type { z } from 'zod';

// Keyed by the very `ToolDef` object `defineTool` returned: a copy or a hand-written def has no
// entry, and its parameter keys are then read from its JSON Schema instead (`toolParamKeys`).
const SCHEMAS = new WeakMap<object, z.ZodType>();

/** Records the zod schema a tool was built from, so dispatch can read its real parameter keys. */
export function recordArgsSchema<T extends object>(tool: T, schema: z.ZodType): T {
  SCHEMAS.set(tool, schema);
  return tool;
}

/** The zod schema `defineTool` built this very object from; `undefined` for any other def. */
export function argsSchemaOf(tool: object): z.ZodType | undefined {
  return SCHEMAS.get(tool);
}
