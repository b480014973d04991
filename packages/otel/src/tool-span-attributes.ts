import type { Attributes } from '@opentelemetry/api';
import type { AnyToolDef } from '@toolhost/core';
import { redactText } from '@toolhost/core/redact';
import { clipAttribute } from './clip-attribute.js';

// A call id is chosen by the model (or its provider): kept for correlation, but redacted and
// bounded like any other text it chose.
const MAX_CALL_ID = 256;

/** The `gen_ai.tool.type` a toolhost tool is reported as. */
export type GenAiToolType = 'function' | 'extension';

/**
 * Built-ins and plugins run in this process from a fixed definition: `function`. An MCP tool
 * (a discovered `mcp_*` tool, or the `mcp_call` built-in) is executed by a separate server the
 * agent side reaches out to: the semconv's `extension`.
 */
export function toolTypeOf(def: AnyToolDef): GenAiToolType {
  return def.source === 'mcp' || def.policy.egress === 'mcp' ? 'extension' : 'function';
}

/** The span's start attributes; an unregistered name is never echoed (model text, unbounded). */
export function toolSpanAttributes(def: AnyToolDef | undefined, callId: unknown): Attributes {
  const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool' };
  if (typeof callId === 'string' && callId !== '') {
    attributes['gen_ai.tool.call.id'] = clipAttribute(redactText(callId), MAX_CALL_ID);
  }
  if (def === undefined) return attributes;
  attributes['gen_ai.tool.name'] = def.id;
  attributes['gen_ai.tool.type'] = toolTypeOf(def);
  attributes['toolhost.tool.source'] = def.source;
  // The MCP conventions ask an outer tool span to carry the MCP method rather than nest another.
  if (toolTypeOf(def) === 'extension') attributes['mcp.method.name'] = 'tools/call';
  return attributes;
}

/** `execute_tool {gen_ai.tool.name}`, or the bare operation when no registered tool is named. */
export function toolSpanName(def: AnyToolDef | undefined): string {
  return def === undefined ? 'execute_tool' : `execute_tool ${def.id}`;
}
