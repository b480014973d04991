import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unwrapUntrusted, type AnyToolDef } from '@toolhost/core';
import type { LoopDispatchOutcome } from '@toolhost/core/loop';
import { successShapeOf, TRUNCATED_STRUCTURED } from './tool-output-schemas.js';

/** A success record that does not have its tool's listed shape: a server bug, never sent. */
export class StructuredResultError extends Error {
  override readonly name = 'StructuredResultError';
  readonly code = 'structured_result_mismatch';
  constructor(readonly toolId: string) {
    // The id of a served built-in only: never a value of the result.
    super(`toolhost: ${toolId} returned a result outside its output schema`);
  }
}

/**
 * Adds `structuredContent` to a successful result of a tool that lists an `outputSchema`: the
 * same bounded, untrusted result the text part shows, as its record. The text part stays as it
 * was; a result cut to text by the ceiling is `{ truncated: true }`.
 */
export function withStructuredContent(
  result: CallToolResult,
  tool: AnyToolDef,
  outcome: LoopDispatchOutcome,
): CallToolResult {
  const shape = successShapeOf(tool);
  if (shape === undefined) return result;
  const value = unwrapUntrusted(outcome.toolResult).result;
  if (typeof value === 'string')
    return { ...result, structuredContent: { ...TRUNCATED_STRUCTURED } };
  const parsed = shape.safeParse(value);
  if (!parsed.success) throw new StructuredResultError(tool.id);
  return { ...result, structuredContent: parsed.data };
}
