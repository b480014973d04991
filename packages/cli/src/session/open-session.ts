// Assembles one CLI run: audit log, journal, host, registry and approval hook, closed as one.
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import {
  createToolRegistry,
  type AnyToolDef,
  type ToolDispatchContext,
  type ToolHost,
  type ToolId,
  type ToolRegistry,
} from '@toolhost/core';
import { redactLeaf } from '@toolhost/core/redact';
import {
  createNodeToolHost,
  type McpArmReport,
  type NodeToolHostOptions,
  type SpillQuotaOptions,
  type SqliteEffectJournal,
} from '@toolhost/node/host';
import { CliUsageError } from '../cli-error.js';
import { ApprovalCache } from '../approval/approval-cache.js';
import type { ApprovalPrompter } from '../approval/approval-prompter.js';
import { createConfirmHook } from '../approval/create-confirm-hook.js';
import { pickLoggedPreview } from '../approval/pick-preview.js';
import type { ProtectedPathContext } from '../approval/is-protected-path.js';
import { openAuditLog, type AuditLog } from '../audit/audit-log.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { createOutputTail } from '../progress/output-tail.js';
import { withProcessProgress } from '../progress/with-process-progress.js';
import { armsFor, needsMcp } from './arms-for.js';
import { LOCAL_TOOLS } from './local-tools.js';
import {
  openRunJournal,
  type OpenedJournal,
  type SessionJournalOptions,
} from './open-run-journal.js';
import { refuseUnknownGrant } from './refuse-unknown-grant.js';
import { createCredentialResolver } from './resolve-credential.js';
import { toMcpDeclarations } from './to-mcp-declarations.js';
import { wrapRegistry } from './wrap-registry.js';

export type { SessionJournalOptions } from './open-run-journal.js';

/** How a session talks to its human, if there is one. */
export interface SessionOptions {
  readonly settings: EffectiveSettings;
  readonly runId?: string;
  /** Absent ⇒ non-interactive: approvals that need a human are refused. */
  readonly prompter?: ApprovalPrompter;
  /** Why there is no prompter; shown in the refusal. */
  readonly nonInteractiveReason?: string;
  /** A TTY stream for the elapsed-time display of long commands. */
  readonly progress?: NodeJS.WriteStream;
  /** The human invoking the CLI is the gate for `requiresGateApproval` tools. */
  readonly gateApproved?: boolean;
  /** Journal every side-effecting call of this run (`runId`) in this SQLite file. */
  readonly journal?: SessionJournalOptions;
  /** What the run may spill (default: the host's, 256 MiB a call and 1 GiB a run). */
  readonly spillQuota?: SpillQuotaOptions;
  /** The scope media is stored and read under (default `workspace:<root>`). */
  readonly mediaScope?: string;
  /**
   * Open even when the grant names ids no tool has (`doctor`, which reports them); otherwise
   * such a grant is refused with `UnknownGrantError` once MCP discovery is done.
   */
  readonly allowUnknownGrant?: boolean;
  /**
   * The only tools this session will dispatch (`call`: the one it runs). Host arms none of them
   * needs are not built, so their code never loads. Absent: every arm, whatever the grant.
   */
  readonly dispatchable?: readonly ToolId[];
  /** Wraps the (audited) registry, e.g. in OTLP tracing (`startTracing`). */
  readonly traceRegistry?: (registry: ToolRegistry) => ToolRegistry;
}

/** An assembled registry + Node host + approval policy for one CLI run. */
export interface Session {
  readonly settings: EffectiveSettings;
  readonly runId: string;
  readonly host: ToolHost;
  /** Audited when `settings.auditLog` is set: every dispatch, whoever makes it. */
  readonly registry: ToolRegistry;
  /** What MCP discovery connected and skipped; absent when no server was started. */
  readonly mcpReport?: McpArmReport;
  /** Every registered tool (built-ins and discovered MCP tools). */
  readonly tools: readonly AnyToolDef[];
  /** The granted subset, in id order. */
  readonly grantedTools: readonly AnyToolDef[];
  /** What the protected-path rule guards in this session, the audit log included. */
  readonly protectedPaths: ProtectedPathContext;
  /** The effect journal every dispatch context carries, when the run is journaled. */
  readonly journal?: SqliteEffectJournal;
  /** The dispatch context of one call of `toolId`; approval requests go to the audit log. */
  context(toolId: ToolId, signal?: AbortSignal): ToolDispatchContext;
  close(): Promise<void>;
}

/** Builds the host, the registry and the approval hook from effective settings. */
export async function openSession(options: SessionOptions): Promise<Session> {
  const { settings } = options;
  const runId = options.runId ?? randomUUID();
  // The audit log opens first: a bad path is a usage error before any host or server exists.
  const audit =
    settings.auditLog === undefined
      ? undefined
      : openAuditLog({ file: settings.auditLog, runId, scrub: redactLeaf });
  try {
    // Then the journal: a refused file or a missing driver fails before any host exists.
    const journal =
      options.journal === undefined ? undefined : await openRunJournal(options.journal);
    try {
      return await assemble(options, runId, audit, journal);
    } catch (error) {
      await journal?.store.close();
      throw error;
    }
  } catch (error) {
    audit?.close();
    throw error;
  }
}

async function assemble(
  options: SessionOptions,
  runId: string,
  audit: AuditLog | undefined,
  opened: OpenedJournal | undefined,
): Promise<Session> {
  const journal = opened?.store;
  const { settings } = options;
  const resolveCredential = createCredentialResolver(settings.credentials);
  // The last output line of a long command, shown beside its elapsed time on a terminal.
  const tail = options.progress === undefined ? undefined : createOutputTail();
  const arms = armsFor(options.dispatchable);
  const created = await createHost({
    root: settings.root,
    fsScope: settings.fsScope,
    // Extra roots widen only the project tier; the host refuses them anywhere else.
    ...(settings.fsScope === 'project' ? { extraRoots: settings.extraRoots } : {}),
    stateDir: settings.stateDir,
    // Plan mode is read-only all the way down, not only at the approval gate.
    readOnly: settings.mode === 'plan',
    runId,
    ...(options.spillQuota === undefined ? {} : { spillQuota: options.spillQuota }),
    configFile: settings.configFile,
    // What may run is decided by the grant, the allowlists and the mode; an arm is left out
    // only when no tool this session can dispatch uses it (the grant check refuses the rest first).
    ...(arms.egress ? { egress: { resolveCredential } } : {}),
    ...(arms.process
      ? {
          process: {
            budgets: settings.budgets,
            sandbox: settings.sandbox,
            ...settings.sandboxAllowance,
            ...(tail === undefined ? {} : { onOutput: (output) => tail.observe(output) }),
          },
        }
      : {}),
    ...(arms.os ? { os: {} } : {}),
    // MCP servers are started only when the grant can reach them: `call read_file` must not
    // spawn every configured server.
    ...(needsMcp(settings)
      ? {
          mcp: {
            servers: toMcpDeclarations(settings.mcpServers),
            // The process arm's allowance is not a server's: each entry declares its own.
            sandbox: settings.sandbox,
            resolveCredential,
            reservedIds: LOCAL_TOOLS.map((tool) => tool.id),
          },
        }
      : {}),
  });
  const host =
    options.progress === undefined
      ? created.host
      : withProcessProgress(created.host, {
          stream: options.progress,
          ...(tail === undefined ? {} : { tail }),
        });
  const tools = [...LOCAL_TOOLS, ...created.mcpTools];
  if (options.allowUnknownGrant !== true) await refuseUnknownGrant(settings, tools, created);
  const engine = createToolRegistry({ tools, host });
  const registry = wrapRegistry(engine, { audit, traceRegistry: options.traceRegistry });
  const granted = new Set(settings.grant);
  const grantedTools = tools.filter((tool) => granted.has(tool.id));
  const protectedPaths: ProtectedPathContext = {
    root: settings.root,
    stateDir: settings.stateDir,
    configFile: settings.configFile,
    // Append-only means no tool rewrites the log either: a write there always asks a human.
    // So is the journal and its key: a rewritten record would be replayed as a real result.
    files: [
      ...(settings.auditLog === undefined ? [] : [realpathSync(settings.auditLog)]),
      ...(opened?.files ?? []),
    ],
  };
  const confirm = createConfirmHook({
    mode: settings.mode,
    ...(options.prompter === undefined ? {} : { prompter: options.prompter }),
    ...(options.nonInteractiveReason === undefined
      ? {}
      : { nonInteractiveReason: options.nonInteractiveReason }),
    paths: protectedPaths,
    cache: new ApprovalCache(),
  });
  return {
    settings,
    runId,
    host,
    registry,
    tools,
    grantedTools,
    protectedPaths,
    ...(journal === undefined ? {} : { journal }),
    ...(created.mcpReport === undefined ? {} : { mcpReport: created.mcpReport }),
    context(toolId, signal) {
      const parameters = settings.toolConfig[toolId];
      return {
        nodeId: 'cli',
        grantedToolIds: granted,
        config: parameters === undefined ? {} : { parameters },
        toolPolicy: settings.toolPolicy,
        fsScope: settings.fsScope,
        gateApproved: options.gateApproved ?? false,
        approval: {
          confirm,
          // Copied field by field: a wider object handed in at runtime (a request carrying
          // `unredactedPreview`) can never carry the raw target into the log.
          emitApprovalRequested: (event) =>
            audit?.write('approval_requested', {
              toolId: event.toolId,
              action: event.action,
              preview: pickLoggedPreview(event.preview),
            }),
        },
        limits: settings.limits,
        mediaScope: options.mediaScope ?? `workspace:${settings.root}`,
        // The run id names the run across invocations; the call's id is its key in the run.
        ...(journal === undefined ? {} : { journal: { store: journal, runId } }),
        ...(signal === undefined ? {} : { signal }),
      };
    },
    close: async () => {
      try {
        await created.close();
      } finally {
        try {
          await journal?.close();
        } finally {
          audit?.close();
        }
      }
    },
  };
}

// The host rejects bad options with a TypeError whose message is a fixed template (no path):
// that is a usage problem of this command line, not an internal error.
async function createHost(options: NodeToolHostOptions): ReturnType<typeof createNodeToolHost> {
  try {
    return await createNodeToolHost(options);
  } catch (error) {
    if (error instanceof TypeError) throw new CliUsageError(error.message);
    throw error;
  }
}
