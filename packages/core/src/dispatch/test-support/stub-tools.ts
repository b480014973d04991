// Stub tools, host and context for core unit tests: the one place stubs are right, since core
// performs no I/O of its own. Every stub records its calls so a test can prove "no host call".
import { z } from 'zod';
import type { ToolDispatchContext } from '../../dispatch-context.js';
import { defineTool } from '../../define-tool.js';
import { markCommandPinned } from '../../policy/pinned-process-tools.js';
import type { AnyToolDef, PolicyTarget, ToolPolicyClass } from '../../tool-def.js';
import type { ToolHost } from '../../tool-host.js';

/** A call the stub tool received. */
export interface RecordedCall {
  readonly args: unknown;
}

/** Options for `stubTool`. */
export interface StubToolOptions {
  readonly id?: string;
  readonly source?: AnyToolDef['source'];
  /**
   * A process tool without a policy target stands in for `git_status` (a fixed command) and is
   * marked pinned like it, unless this is `false`.
   */
  readonly pinned?: boolean;
  readonly policy?: Partial<ToolPolicyClass>;
  readonly configOnlyParams?: readonly string[];
  readonly policyTarget?: (args: Record<string, unknown>) => PolicyTarget;
  readonly run?: (
    args: Record<string, unknown>,
    host: ToolHost,
    ctx: ToolDispatchContext,
  ) => Promise<unknown>;
}

/** A permissive-schema tool (any of `command`, `args`, `url`, `path`, `text`, `cwd`, …) that records calls. */
export function stubTool(options: StubToolOptions = {}): {
  tool: AnyToolDef;
  calls: RecordedCall[];
} {
  const calls: RecordedCall[] = [];
  const tool = defineTool({
    id: options.id ?? 'stub',
    ...(options.source === undefined ? {} : { source: options.source }),
    description: 'a stub tool',
    args: z.strictObject({
      command: z.string().optional(),
      args: z.array(z.string()).optional(),
      url: z.string().optional(),
      path: z.string().optional(),
      text: z.string().optional(),
      cwd: z.string().optional(),
      token: z.string().optional(),
      count: z.number().optional(),
      nested: z.unknown().optional(),
    }),
    configOnlyParams: (options.configOnlyParams ?? []) as never,
    policy: {
      fsScoped: false,
      spawnsProcess: false,
      requiresGateApproval: false,
      ...options.policy,
    },
    ...(options.policyTarget === undefined
      ? {}
      : { policyTarget: (args: Record<string, unknown>) => options.policyTarget?.(args) ?? {} }),
    dispatch: async (args, host, ctx) => {
      calls.push({ args });
      return options.run === undefined ? { ok: true, echo: args } : options.run(args, host, ctx);
    },
  });
  const pinned =
    tool.policy.spawnsProcess && options.policyTarget === undefined && options.pinned !== false;
  return { tool: pinned ? markCommandPinned(tool) : tool, calls };
}

/** A process-like tool: target command = command + args joined by one space. */
export function commandTool(options: StubToolOptions = {}): {
  tool: AnyToolDef;
  calls: RecordedCall[];
} {
  return stubTool({
    id: 'run',
    ...options,
    policy: { spawnsProcess: true, ...options.policy },
    policyTarget: (args) => {
      const command = typeof args['command'] === 'string' ? args['command'] : '';
      const rest = Array.isArray(args['args']) ? (args['args'] as string[]) : [];
      return { command: [command, ...rest].join(' '), argv: [command, ...rest] };
    },
  });
}

/** An `http` egress tool whose target is `url`. */
export function httpTool(options: StubToolOptions = {}): {
  tool: AnyToolDef;
  calls: RecordedCall[];
} {
  return stubTool({
    id: 'http',
    ...options,
    policy: { egress: 'http', ...options.policy },
    policyTarget: (args) => (typeof args['url'] === 'string' ? { url: args['url'] } : {}),
  });
}

/** A minimal context granting the given ids. */
export function stubContext(
  grantedToolIds: readonly string[],
  overrides: Partial<ToolDispatchContext> = {},
): ToolDispatchContext {
  return {
    nodeId: 'node-1',
    grantedToolIds: new Set(grantedToolIds),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    ...overrides,
  };
}
