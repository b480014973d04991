import { ToolPolicyError, UnknownToolError, type ToolId } from '@toolhost/core';
import type { LoopRegistry } from '@toolhost/core/loop';

/**
 * Why a `tools/call` of a tool the server does not list is refused. A tool the registry has but
 * the grant leaves out is `not_granted`, a tool execution error carrying the CLI's own hint (one
 * `describeFailure` for both, so they cannot drift); a name nobody registered stays an unknown
 * tool, a protocol error. The id named is then a registered one, never the client's free text.
 */
export function refuseUnexposedTool(
  registry: Pick<LoopRegistry, 'get'>,
  name: string,
  exposedIds: readonly ToolId[],
): ToolPolicyError | UnknownToolError {
  if (registry.get(name) !== undefined) return new ToolPolicyError(name, 'not_granted');
  return new UnknownToolError(name, exposedIds);
}
