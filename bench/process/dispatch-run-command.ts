import {
  BUILTIN_TOOLS,
  createToolRegistry,
  type ToolDispatchContext,
  type ToolRegistry,
} from '@toolhost/core';

import type { ProcessArm } from '../../packages/node/src/process/create-process-arm.js';

/** `run_command` through a registry over `arm`; a run that does not exit 0 fails the bench. */
export function runCommandThrough(
  arm: ProcessArm,
): (command: string, args: readonly string[]) => Promise<void> {
  const registry: ToolRegistry = createToolRegistry({
    tools: BUILTIN_TOOLS,
    host: { process: arm },
  });
  // Built once per command line: the rows time the registry and the arm, not this object.
  const contexts = new Map<string, ToolDispatchContext>();
  return async (command, args) => {
    const line = [command, ...args].join(' ');
    let context = contexts.get(line);
    if (context === undefined) {
      context = {
        nodeId: 'bench',
        grantedToolIds: new Set(['run_command']),
        config: {},
        toolPolicy: { allowedCommands: [line] },
        fsScope: 'sandboxed',
        gateApproved: false,
      };
      contexts.set(line, context);
    }
    const outcome = await registry.dispatch(
      { id: 'b', name: 'run_command', args: { command, args: [...args] } },
      context,
    );
    const { exitCode, stderr } = outcome.output as { exitCode?: number; stderr?: string };
    if (exitCode !== 0) throw new Error(`bench: ${line} exited ${exitCode}: ${stderr ?? ''}`);
  };
}
