import { ToolArgsInvalidError, type ToolActionClass, type ToolActionPreview } from '@toolhost/core';
import type { FunctionTool, RunToolApprovalItem } from '@openai/agents';
import { bindingOf } from './adapter-binding.js';
import { preflightCall } from './present-for-approval.js';

/** What to show the human for one interruption: never the call's raw arguments. */
export interface ToolhostApprovalPreview {
  readonly toolId: string;
  readonly action: ToolActionClass;
  /** The same scrubbed, secret-free preview toolhost's `confirm` hook gets. */
  readonly preview: ToolActionPreview;
}

/**
 * The redacted preview of an interruption raised by one of `tools` under `approval: 'sdk'`:
 * the path, the command or the host only, scrubbed of secret shapes. Recomputed from the item,
 * so it works on a restored run state too. Throws the typed toolhost refusal for a call the
 * engine would refuse (reject it), and a `TypeError` for an item none of `tools` raised.
 */
export function toolhostApprovalPreview(
  tools: readonly FunctionTool[],
  item: RunToolApprovalItem,
): ToolhostApprovalPreview {
  const binding = tools.map(bindingOf).find((candidate) => candidate?.def.id === item.name);
  if (binding === undefined) {
    throw new TypeError('toolhost: the approval item was not raised by these toolhost tools');
  }
  const toolId = binding.def.id;
  const callId = 'callId' in item.rawItem ? item.rawItem.callId : undefined;
  const preflight = preflightCall(binding, parseArguments(toolId, item.arguments), callId);
  if (preflight === undefined) {
    throw new TypeError('toolhost: the registry has no preflight to preview the call with');
  }
  const { action, preview } = preflight;
  if (action === undefined || preview === undefined) {
    throw new TypeError(`toolhost: tool ${toolId} call is not governed`);
  }
  return Object.freeze({ toolId, action, preview });
}

function parseArguments(toolId: string, text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '') as unknown;
  } catch (error) {
    throw new ToolArgsInvalidError(toolId, [{ field: '(root)', problem: 'not_json' }], {
      cause: error,
    });
  }
}
