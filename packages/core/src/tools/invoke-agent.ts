import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { refusedBeforeEffect, ToolUnavailableError } from '../errors.js';
import { MAX_CONTENT_LENGTH, MAX_NAME_LENGTH } from './arg-bounds.js';

const ID = 'invoke_agent';

/** Hands a task to another agent node through the engine's delegate (no host I/O). */
export const invokeAgentTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Delegate a task to another agent node of this workflow and return its output. Pass the task or message as input.',
  args: z.strictObject({
    nodeId: z.string().min(1).max(MAX_NAME_LENGTH).describe('Id of the agent node to invoke.'),
    // Text, not an open object: every provider can express it, and an agent's input is a message.
    input: z
      .string()
      .max(MAX_CONTENT_LENGTH)
      .optional()
      .describe('The task or message for the agent.'),
  }),
  // No `effect`: the invoked agent's own tools decide what a call does (assume the worst).
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  async dispatch(args, _host, ctx) {
    // The delegate owns depth limits; without one there is nothing to invoke.
    if (ctx.invokeAgent === undefined) {
      throw refusedBeforeEffect(new ToolUnavailableError(ID, 'invokeAgent'));
    }
    return ctx.invokeAgent(args.nodeId, args.input);
  },
});
