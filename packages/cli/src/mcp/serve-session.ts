import type { CliIo } from '../commands/cli-io.js';
import {
  renderMcpReach,
  renderSandboxMode,
  renderSandboxOffNotice,
} from '../commands/render-floors.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { describeMcpReach } from '../session/describe-mcp-reach.js';
import { describeHostContainment } from '../session/describe-process-floors.js';
import { openSession, type Session } from '../session/open-session.js';
import type { ToolServerOptions } from './create-tool-server.js';
import type { ServeCallLimits } from './serve-call-limits.js';

/** `toolhost serve`'s inputs: the effective settings (defaults: cwd, sandboxed, ask, read-only grant). */
export interface McpServeSessionOptions {
  readonly settings: EffectiveSettings;
  /** stdin/stdout carry the protocol; stderr gets the one-line discovery summary. */
  readonly io?: Pick<CliIo, 'stdin' | 'stdout' | 'stderr'>;
  /** Concurrent-call caps (defaults: 8 per session, 16 in all, 32 waiting). */
  readonly callLimits?: ServeCallLimits;
}

/** Opens a CLI session and derives the server's options from it; `close` ends the session. */
export async function openServeSession(
  options: McpServeSessionOptions,
): Promise<{ readonly serverOptions: ToolServerOptions; close(): Promise<void> }> {
  const { settings, io } = options;
  const session = await openSession({
    settings,
    nonInteractiveReason: 'the MCP client does not support elicitation',
  });
  io?.stderr.write(
    `${summary(
      session.grantedTools.map((tool) => tool.id),
      session.mcpReport,
    )}\n`,
  );
  if (io !== undefined) {
    for (const line of await floorNotices(session)) io.stderr.write(`toolhost serve: ${line}\n`);
  }
  return {
    serverOptions: {
      registry: session.registry,
      tools: session.grantedTools,
      createContext: (toolId, signal) => session.context(toolId, signal),
      mode: settings.mode,
      // The session's own list, so the audit log is as protected here as under `toolhost call`.
      paths: session.protectedPaths,
      ...(options.callLimits === undefined ? {} : { callLimits: options.callLimits }),
    },
    close: () => session.close(),
  };
}

function summary(toolIds: readonly string[], mcpReport: unknown): string {
  const line = `toolhost serve: ${toolIds.length} tool(s): ${toolIds.join(', ') || '(none)'}`;
  return mcpReport === undefined ? line : `${line}; mcp: ${JSON.stringify(mcpReport)}`;
}

// An MCP client never sees `doctor`: a host running its tools unsandboxed, or failing every
// command closed, is said where the operator who started it looks.
async function floorNotices(session: Session): Promise<string[]> {
  const { settings } = session;
  const notices: string[] = [];
  const off = renderSandboxOffNotice(settings);
  if (off !== undefined) notices.push(off);
  else {
    const sandbox = (await describeHostContainment(session.host))?.sandbox;
    if (sandbox !== undefined && !sandbox.available) {
      notices.push(`process sandbox ${renderSandboxMode(sandbox, settings)}`);
    }
  }
  // Only servers that were started: without an mcp_ grant none of them runs.
  if (session.mcpReport !== undefined) {
    for (const reach of describeMcpReach(settings)) {
      notices.push(`mcp server ${renderMcpReach(reach)}`);
    }
  }
  return notices;
}
