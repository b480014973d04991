import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_ERROR_META_KEY } from '../to-tool-error-result.js';

/** The text parts of a `callTool` answer, joined by newlines. */
export function textOf(result: unknown): string {
  return ((result as Partial<CallToolResult>).content ?? [])
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

/** The `{ code, reason, classification }` a tool error carries under `_meta`. */
export function errorMeta(result: unknown): unknown {
  return (result as Partial<CallToolResult>)._meta?.[TOOL_ERROR_META_KEY];
}
