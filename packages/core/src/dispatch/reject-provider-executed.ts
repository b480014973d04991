import { printableToolName, ToolPolicyError } from '../errors.js';
import type { ToolCall } from './tool-call.js';

/** Step 1: the provider already ran this call; the engine never runs it a second time. */
export function rejectProviderExecuted(call: ToolCall): void {
  // Before resolution, so a provider-run call is refused even for an unregistered name; that name
  // is model text, so it reaches the message only when it is plainly an identifier.
  if (call.providerExecuted === true) {
    throw new ToolPolicyError(printableToolName(call.name), 'provider_executed');
  }
}
