import { randomUUID } from 'node:crypto';
import type { CliIo } from '../commands/cli-io.js';
import {
  renderMcpReach,
  renderSandboxMode,
  renderSandboxOffNotice,
} from '../commands/render-floors.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { describeMcpCollisions } from '../session/describe-mcp-collisions.js';
import { describeMcpReach } from '../session/describe-mcp-reach.js';
import { describeHostContainment } from '../session/describe-process-floors.js';
import { openSession, type Session } from '../session/open-session.js';
import type { SpillQuotaOptions } from '@toolhost/node';
import type { ToolRegistry } from '@toolhost/core';
import type { ServeRun } from './http-tool-session.js';
import type { ServeCallLimits } from './serve-call-limits.js';

/**
 * What one HTTP session may spill: the per-call default, so any one call that fitted before still
 * does, while a long-lived server holds at most this per live session, each swept when it ends.
 */
export const HTTP_SESSION_SPILL_QUOTA: SpillQuotaOptions = { maxBytesPerRun: 256 * 1024 * 1024 };

const NON_INTERACTIVE_REASON = 'the MCP client does not support elicitation';

/** `toolhost serve`'s inputs: the effective settings (defaults: cwd, sandboxed, ask, read-only grant). */
export interface McpServeSessionOptions {
  readonly settings: EffectiveSettings;
  /** stdin/stdout carry the protocol; stderr gets the one-line discovery summary. */
  readonly io?: Pick<CliIo, 'stdin' | 'stdout' | 'stderr'>;
  /** Concurrent-call caps (defaults: 8 per session, 16 in all, 32 waiting). */
  readonly callLimits?: ServeCallLimits;
  /** Wraps every run's registry (OTLP tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set). */
  readonly traceRegistry?: (registry: ToolRegistry) => ToolRegistry;
}

/** The served CLI session, and a way to open one more run per HTTP client session. */
export interface ServeSession extends ServeRun {
  /**
   * Opens another run of the same settings: its own run id, spill and media directories and
   * spill quota, so one HTTP client can never page another's output; `close` sweeps them.
   */
  openRun(): Promise<ServeRun>;
}

/** Opens a CLI session and derives the server's options from it; `close` ends the session. */
export async function openServeSession(options: McpServeSessionOptions): Promise<ServeSession> {
  const { settings, io } = options;
  const traced =
    options.traceRegistry === undefined ? {} : { traceRegistry: options.traceRegistry };
  const session = await openSession({
    settings,
    nonInteractiveReason: NON_INTERACTIVE_REASON,
    ...traced,
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
    ...toServeRun(session, options.callLimits),
    openRun: async () => {
      const runId = randomUUID();
      const run = await openSession({
        settings,
        runId,
        nonInteractiveReason: NON_INTERACTIVE_REASON,
        spillQuota: HTTP_SESSION_SPILL_QUOTA,
        // Media handles are content addresses: without a scope of its own, a session that learns
        // another's hash could read its bytes.
        mediaScope: `run:${runId}`,
        ...traced,
      });
      return toServeRun(run, options.callLimits);
    },
  };
}

function toServeRun(session: Session, callLimits: ServeCallLimits | undefined): ServeRun {
  return {
    serverOptions: {
      registry: session.registry,
      tools: session.grantedTools,
      createContext: (toolId, signal) => session.context(toolId, signal),
      mode: session.settings.mode,
      // The session's own list, so the audit log is as protected here as under `toolhost call`.
      paths: session.protectedPaths,
      ...(callLimits === undefined ? {} : { callLimits }),
      // The run's own store: a session's images reach its client, never another session's.
      ...(session.host.media === undefined ? {} : { media: session.host.media }),
    },
    close: () => session.close(),
  };
}

function summary(toolIds: readonly string[], mcpReport: Session['mcpReport']): string {
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
  for (const line of describeMcpCollisions(session.mcpReport)) notices.push(`mcp: ${line}`);
  // Only servers that were started: without an mcp_ grant none of them runs.
  if (session.mcpReport !== undefined) {
    for (const reach of describeMcpReach(settings)) {
      notices.push(`mcp server ${renderMcpReach(reach)}`);
    }
  }
  return notices;
}
