import { ToolExecutionError } from '../errors.js';
import type { AnyToolDef, PolicyTarget, PolicyTargetEdit } from '../tool-def.js';

/**
 * The tool's guardrail target, copied and frozen once, before any await: policy, approval and
 * admission all judge this same value, whatever the args object does later.
 */
export function policyTargetOf(tool: AnyToolDef, args: unknown): PolicyTarget | undefined {
  if (tool.policyTarget === undefined) return undefined;
  let target: PolicyTarget;
  try {
    target = tool.policyTarget(args);
  } catch (error) {
    // Fails closed: a target that cannot be computed cannot be checked.
    throw new ToolExecutionError(tool.id, 'policy_target_failed', { cause: error });
  }
  const copy: {
    command?: string;
    argv?: readonly string[];
    url?: string;
    path?: string;
    destination?: string;
    edits?: readonly PolicyTargetEdit[];
    content?: string;
    writeMode?: 'replace' | 'append';
    endpointHost?: string;
    server?: string;
    tool?: string;
  } = {};
  if (typeof target.command === 'string') copy.command = target.command;
  if (Array.isArray(target.argv)) copy.argv = Object.freeze(target.argv.map(String));
  if (typeof target.url === 'string') copy.url = target.url;
  if (typeof target.path === 'string') copy.path = target.path;
  if (typeof target.destination === 'string') copy.destination = target.destination;
  if (Array.isArray(target.edits)) copy.edits = copyEdits(tool, target.edits);
  if (typeof target.content === 'string') copy.content = target.content;
  if (target.writeMode === 'replace' || target.writeMode === 'append') {
    copy.writeMode = target.writeMode;
  }
  if (typeof target.endpointHost === 'string') copy.endpointHost = target.endpointHost;
  if (typeof target.server === 'string') copy.server = target.server;
  if (typeof target.tool === 'string') copy.tool = target.tool;
  return Object.freeze(copy);
}

// The approver is shown these: an entry that is not plain text fails closed, never vanishes.
function copyEdits(
  tool: AnyToolDef,
  edits: readonly PolicyTargetEdit[],
): readonly PolicyTargetEdit[] {
  return Object.freeze(
    edits.map((edit) => {
      const { oldText, newText, replaceAll } = edit ?? {};
      if (typeof oldText !== 'string' || typeof newText !== 'string') {
        throw new ToolExecutionError(tool.id, 'policy_target_failed');
      }
      return Object.freeze(
        replaceAll === true ? { oldText, newText, replaceAll } : { oldText, newText },
      );
    }),
  );
}
