import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyToolDef, ToolErrorClass } from '@toolhost/core';
import { z } from 'zod';

// Only the built-ins whose result is a small fixed record get an `outputSchema`: a read, a
// listing, a search or a command's output is text of any size, cut to the model-facing ceiling,
// so its shape is not stable. The shapes are the tools' own returns (built-in-tools.md §1).
const SUCCESS_SHAPES: ReadonlyMap<string, z.ZodObject> = new Map<string, z.ZodObject>([
  ['write_file', z.strictObject({ path: z.string(), bytesWritten: z.int().min(0) })],
  ['create_directory', z.strictObject({ path: z.string(), created: z.boolean() })],
  [
    'move_file',
    z.strictObject({ source: z.string(), destination: z.string(), overwritten: z.boolean() }),
  ],
]);

const CLASSIFICATIONS = [
  'correctable',
  'recoverable',
  'fatal',
  'cancelled',
] as const satisfies readonly ToolErrorClass[];

/**
 * A tool error's `structuredContent` (`toToolErrorResult`). The SDK's client validates
 * `structuredContent` against `outputSchema` even on `isError`, so every output schema admits it.
 */
const ERROR_SHAPE = z.strictObject({
  code: z.string(),
  reason: z.string().optional(),
  classification: z.enum(CLASSIFICATIONS),
});

/**
 * A success whose record was cut to fit the model-facing ceiling (a tiny `--max-bytes`): the
 * text part carries the preview and the marker, the structured copy says only that it was cut.
 */
export const TRUNCATED_STRUCTURED = Object.freeze({ truncated: true as const });
const TRUNCATED_SHAPE = z.strictObject({ truncated: z.literal(true) });

/** The tool's success record schema, when its result shape is stable; else `undefined`. */
export function successShapeOf(tool: AnyToolDef): z.ZodObject | undefined {
  // A plugin or MCP tool may reuse an id-like name; only the built-in's shape is known.
  return tool.source === 'builtin' ? SUCCESS_SHAPES.get(tool.id) : undefined;
}

/** The listed `outputSchema`: the success record, the toolhost error or the truncated marker. */
export function toolOutputSchema(tool: AnyToolDef): Tool['outputSchema'] {
  const success = successShapeOf(tool);
  if (success === undefined) return undefined;
  return {
    type: 'object',
    anyOf: [success, ERROR_SHAPE, TRUNCATED_SHAPE].map(toDraft7),
  };
}

// The SDK's client compiles with Ajv's draft-07 default: no `$schema` inside a branch.
function toDraft7(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-07' });
  return rest;
}
