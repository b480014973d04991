import {
  BUILTIN_TOOLS,
  WORKSPACE_TOOLS,
  createToolRegistry,
  ToolArgsInvalidError,
  ToolPolicyError,
  UnknownToolError,
  type AnyToolDef,
  type ToolApprovalRequest,
  type ToolDispatchContext,
} from '@toolhost/core';
import type { PolicyTarget } from '@toolhost/core/policy';
import type { Command } from 'commander';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { EXIT_CODES } from '../exit-codes.js';
import { printJson, type CliIo } from './cli-io.js';
import { describeFailure } from './describe-failure.js';
import { describeProcessFloors } from '../session/describe-process-floors.js';
import {
  approvalStep,
  fsStep,
  policySteps,
  sandboxStep,
  type ExplainStep,
} from './explain-steps.js';
import { judgeTool } from './judge-tool.js';
import {
  addPolicyOptions,
  settingsFromOptions,
  type PolicyOptionValues,
} from './policy-options.js';
import { createProbeHost } from './probe-host.js';
import { readCallArgs } from './read-call-args.js';
import { safeToolName } from './safe-tool-name.js';

interface ExplainOptions extends PolicyOptionValues {
  readonly gateApproved?: boolean;
}

/** `toolhost explain <tool> [json-args]`: the pipeline walked up to the host call, no effect. */
export function registerExplain(
  program: Command,
  io: CliIo,
  setExit: (code: number) => void,
): void {
  addPolicyOptions(
    program
      .command('explain')
      .description('dry run: which step would allow or refuse this call, and why')
      .argument('<tool>', 'tool id')
      .argument('[json-args]', 'arguments: JSON text, @file.json, or - for stdin'),
  )
    .option('--gate-approved', 'judge as if you are the human gate')
    .action(async (toolId: string, rawArgs: string | undefined, options: ExplainOptions) => {
      const settings = settingsFromOptions(options, io);
      const args = await readCallArgs(rawArgs, io.stdin);
      const { steps, exitCode } = await explainCall(
        toolId,
        args,
        settings,
        options.gateApproved === true,
      );
      if (options.json === true) {
        printJson(io, {
          tool: safeToolName(toolId),
          allowed: exitCode === EXIT_CODES.success,
          exitCode,
          steps,
        });
      } else {
        io.stdout.write(renderSteps(safeToolName(toolId), steps, exitCode));
      }
      setExit(exitCode);
    });
}

/**
 * Runs the REAL registry pipeline against a probe host whose every arm refuses, with a recording
 * approval hook and a `beforeDispatch` that stops the walk just before the host call. So the
 * order and the checks are the engine's own, and nothing can reach an effect.
 */
export async function explainCall(
  toolId: string,
  args: unknown,
  settings: EffectiveSettings,
  gateApproved: boolean,
): Promise<{ steps: ExplainStep[]; exitCode: number }> {
  const readOnly = settings.mode === 'plan';
  const probeHost = createProbeHost({ readOnly });
  const registry = createToolRegistry({
    tools: [...BUILTIN_TOOLS, ...WORKSPACE_TOOLS],
    host: probeHost,
  });
  let approvalRequest: ToolApprovalRequest | undefined;
  let reached: { target?: PolicyTarget } | undefined;
  const parameters = settings.toolConfig[toolId];
  const context: ToolDispatchContext = {
    nodeId: 'explain',
    grantedToolIds: new Set(settings.grant),
    config: parameters === undefined ? {} : { parameters },
    toolPolicy: settings.toolPolicy,
    fsScope: settings.fsScope,
    gateApproved,
    approval: {
      confirm: (request) => {
        approvalRequest = request;
        return Promise.resolve({ outcome: 'approve' });
      },
    },
    beforeDispatch: (_id, target) => {
      reached = target === undefined ? {} : { target };
      throw new Error('explain: stopped before the host call');
    },
    limits: settings.limits,
  };
  let failure: unknown;
  try {
    await registry.dispatch({ id: 'explain', name: toolId, args }, context);
  } catch (error) {
    failure = error;
  }
  const tool = registry.get(toolId);
  const steps: ExplainStep[] = [];
  if (tool === undefined && toolId.startsWith('mcp_') && toolId !== 'mcp_call') {
    // Discovering an MCP tool means starting its server: an effect a dry run must not have.
    steps.push({
      step: 'resolve',
      status: 'fail',
      detail: 'MCP tools are known only after starting their server, which explain never does',
    });
    return { steps, exitCode: EXIT_CODES.usage };
  }
  if (tool === undefined || failure instanceof UnknownToolError) {
    steps.push({ step: 'resolve', status: 'fail', detail: 'no registered tool has this exact id' });
    return { steps, exitCode: EXIT_CODES.invalidArgs };
  }
  steps.push({ step: 'resolve', status: 'pass', detail: `${tool.source} tool` });
  if (failure instanceof ToolPolicyError && failure.reason === 'not_granted') {
    steps.push({
      step: 'grant',
      status: 'fail',
      detail: 'not in "tools" (the grant) → not_granted',
    });
    return { steps, exitCode: EXIT_CODES.denied };
  }
  steps.push({ step: 'grant', status: 'pass', detail: 'in the grant' });
  if (failure instanceof ToolArgsInvalidError) {
    const issues = failure.issues.map((issue) => `${issue.field} (${issue.problem})`).join(', ');
    steps.push({ step: 'args', status: 'fail', detail: issues });
    return { steps, exitCode: EXIT_CODES.invalidArgs };
  }
  steps.push({ step: 'args', status: 'pass', detail: describeEffectiveArgs(tool, parameters) });
  const target = reached?.target ?? computeTarget(tool, args, parameters);
  steps.push(...policySteps(tool, target, settings, failure));
  // `beforeDispatch` ran only if every engine step passed; the registry wraps our stop signal.
  if (reached === undefined) {
    return { steps, exitCode: describeFailure(failure).exitCode };
  }
  const refusedByFs = fsStep(tool, target, settings, steps);
  const approval = await approvalStep(tool, approvalRequest, settings);
  steps.push(approval);
  const verdict = judgeTool(tool, probeHost, settings, {});
  if (!verdict.available) {
    steps.push({ step: 'host', status: 'fail', detail: `this host has no ${verdict.needs} arm` });
    return { steps, exitCode: EXIT_CODES.unavailable };
  }
  steps.push({ step: 'host', status: 'info', detail: `would call the ${verdict.needs} arm` });
  const refused = refusedByFs || approval.status === 'fail';
  if (!tool.policy.spawnsProcess) {
    return { steps, exitCode: refused ? EXIT_CODES.denied : EXIT_CODES.success };
  }
  const sandbox = sandboxStep(await describeProcessFloors(settings), settings);
  steps.push(sandbox);
  // A refusal comes first, as in the real call: the sandbox is met only by a command that runs.
  if (refused) return { steps, exitCode: EXIT_CODES.denied };
  return {
    steps,
    exitCode: sandbox.status === 'fail' ? EXIT_CODES.unavailable : EXIT_CODES.success,
  };
}

function describeEffectiveArgs(
  tool: AnyToolDef,
  parameters: Readonly<Record<string, unknown>> | undefined,
): string {
  const fromConfig = Object.keys(parameters ?? {});
  const hidden = tool.configOnlyParams ?? [];
  const notes = ['valid'];
  if (fromConfig.length > 0) notes.push(`from toolConfig: ${fromConfig.join(', ')}`);
  if (hidden.length > 0) notes.push(`config-only (a caller cannot set): ${hidden.join(', ')}`);
  return notes.join('; ');
}

// The pipeline refused before handing us its target, so recompute it the same pure way.
function computeTarget(
  tool: AnyToolDef,
  args: unknown,
  parameters: Readonly<Record<string, unknown>> | undefined,
): PolicyTarget | undefined {
  if (tool.policyTarget === undefined) return undefined;
  try {
    const modelArgs = typeof args === 'object' && args !== null ? args : {};
    const hidden = new Set(tool.configOnlyParams ?? []);
    const visible = Object.fromEntries(
      Object.entries(modelArgs).filter(([key]) => !hidden.has(key)),
    );
    return tool.policyTarget(tool.parseArgs({ ...visible, ...parameters }));
  } catch {
    return undefined;
  }
}

const MARKS = { pass: '✓', fail: '✗', ask: '?', info: '·' } as const;

function renderSteps(tool: string, steps: readonly ExplainStep[], exitCode: number): string {
  const lines = [`explain ${tool}`];
  for (const step of steps)
    lines.push(`  ${MARKS[step.status]} ${step.step.padEnd(9)} ${step.detail}`);
  const failed = steps.find((step) => step.status === 'fail');
  lines.push(
    failed === undefined
      ? `verdict: would run${steps.some((step) => step.status === 'ask') ? ' after your approval' : ''}`
      : `verdict: refused at ${failed.step} (exit ${exitCode})`,
  );
  return `${lines.join('\n')}\n`;
}
