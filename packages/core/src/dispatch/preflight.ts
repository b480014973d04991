import type { ToolDispatchContext, ToolPreflight } from '../dispatch-context.js';
import type { ToolHost } from '../tool-host.js';
import { previewAction } from './action-preview.js';
import type { RegisteredTool } from './registered-tool.js';
import { screenCall } from './screen-call.js';
import type { ToolCall } from './tool-call.js';

/**
 * Dispatch's checks before consent, the host's own judgement (`ToolHost.preflight`) included,
 * without any arm, the guard, approval or `beforeDispatch`: throws the typed error dispatch
 * would, so a refused call is never put to a human, and returns the same scrubbed preview
 * `confirm` gets.
 */
export function preflight(
  tools: ReadonlyMap<string, RegisteredTool>,
  host: ToolHost,
  call: ToolCall,
  ctx: ToolDispatchContext,
): ToolPreflight {
  const { action, target } = screenCall(tools, host, call, ctx);
  if (action === undefined) return Object.freeze({});
  return Object.freeze({ action, preview: previewAction(action, target).preview });
}
