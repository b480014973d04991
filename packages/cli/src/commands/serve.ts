import path from 'node:path';
import type { Command } from 'commander';
import type { ToolRegistry } from '@toolhost/core';
import { CliUsageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { ServeCallLimits } from '../mcp/serve-call-limits.js';
import { startTracing } from '../session/start-tracing.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import type { ServeUi } from '../ui/start-serve-ui.js';
import type { CliIo } from './cli-io.js';
import {
  addPolicyOptions,
  settingsFromOptions,
  type PolicyOptionValues,
} from './policy-options.js';

/** `toolhost serve`: toolhost as a guarded MCP server on stdio, from `mcp-server.ts`. */
export function registerServe(program: Command, io: CliIo, setExit: (code: number) => void): void {
  addPolicyOptions(
    program
      .command('serve')
      .description('serve the granted tools over MCP (stdio) through the same guardrails'),
  )
    .option('--audit-log <file>', 'append one JSON line per tool_call / approval / result event')
    .option(
      '--http [port]',
      'serve Streamable HTTP on 127.0.0.1 instead of stdio (token and Host/Origin checked; default: a free port)',
    )
    .option(
      '--token-file <file>',
      'with --http: also write the per-start token to this new file (0600, removed on exit)',
    )
    .option(
      '--session-idle-timeout <seconds>',
      'with --http: end a client session after this long with no request or call (default 600)',
    )
    .option(
      '--max-calls-per-session <n>',
      'tool calls one client runs at once; more wait, and past 32 waiting are refused as busy (default 8)',
    )
    .option('--max-calls-in-flight <n>', 'tool calls all clients run at once (default 16)')
    .option(
      '--max-waiting-calls <n>',
      'tool calls that may wait for a slot, per client and in all (default 32)',
    )
    .option(
      '--ui',
      'also serve the control tower: a local page (URL with its token on stderr) showing every call and taking approvals',
    )
    .option('--ui-port <n>', "with --ui: the page's port on 127.0.0.1 (default: a free port)")
    .option(
      '--ui-approval-timeout <seconds>',
      'with --ui: deny a pending approval nobody answered after this long (default 120)',
    )
    .action(async (options: ServeOptionValues) => {
      const settings = settingsFromOptions(options, io);
      const transport = toTransport(options);
      const callLimits = toCallLimits(options);
      const uiOptions = toUiOptions(options);
      // Loaded lazily so `call` and friends never pay for the MCP SDK (nor for Hono).
      const { startMcpServer } = await import('../mcp-server.js');
      const tracing = await startTracing(io);
      let ui: ServeUi | undefined;
      try {
        ui = uiOptions === undefined ? undefined : await startUi(settings, io, uiOptions);
        const traceRegistry = composeRegistryWrappers(tracing?.traceRegistry, ui?.wrapRegistry);
        await startMcpServer({
          settings,
          io,
          callLimits,
          ...(transport === undefined ? {} : { transport }),
          ...(traceRegistry === undefined ? {} : { traceRegistry }),
          ...(ui === undefined
            ? {}
            : {
                approvalBroker: ui.approvalBroker,
                onRunClosed: ui.runClosed,
                runSessionId: ui.sessionIdOf,
              }),
        });
      } catch (error) {
        throw transport === undefined
          ? error
          : (toListenUsageError(error, transport.port) ?? error);
      } finally {
        await ui?.close();
        // On shutdown (stdin closed, SIGINT/SIGTERM): the spans still queued are exported.
        await tracing?.shutdown();
      }
      setExit(EXIT_CODES.success);
    });
}

type RegistryWrapper = (registry: ToolRegistry) => ToolRegistry;

// Tracing sits inside the page's wrapper: the page sees each call as its client made it.
function composeRegistryWrappers(
  inner: RegistryWrapper | undefined,
  outer: RegistryWrapper | undefined,
): RegistryWrapper | undefined {
  if (inner === undefined || outer === undefined) return inner ?? outer;
  return (registry) => outer(inner(registry));
}

type UiOptions = { readonly port?: number; readonly approvalTimeoutMs: number };

// Loaded lazily: Hono and the page are paid for only by `serve --ui`.
async function startUi(settings: EffectiveSettings, io: CliIo, options: UiOptions) {
  const { startServeUi } = await import('../ui/start-serve-ui.js');
  try {
    return await startServeUi({ settings, io, ...options });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new CliUsageError(
      `port ${options.port ?? 0} on 127.0.0.1 is already in use; pick another with --ui-port <n> or omit it for a free one`,
      { cause: error },
    );
  }
}

function toUiOptions(options: ServeOptionValues): UiOptions | undefined {
  const { ui, uiPort, uiApprovalTimeout } = options;
  if (ui !== true) {
    // A page flag without the page would silently do nothing; say so instead.
    if (uiPort !== undefined) throw new CliUsageError('--ui-port needs --ui');
    if (uiApprovalTimeout !== undefined)
      throw new CliUsageError('--ui-approval-timeout needs --ui');
    return undefined;
  }
  const port = uiPort === undefined ? undefined : Number(uiPort);
  if (port !== undefined && (!/^\d+$/u.test(uiPort ?? '') || port > 65_535))
    throw new CliUsageError('--ui-port takes a port number between 0 and 65535');
  const timeoutMs = Math.ceil(Number(uiApprovalTimeout ?? DEFAULT_UI_APPROVAL_TIMEOUT_S) * 1000);
  if (
    (uiApprovalTimeout !== undefined && !/^\d+(?:\.\d+)?$/u.test(uiApprovalTimeout)) ||
    !(timeoutMs >= 1) ||
    timeoutMs > 2 ** 31 - 1
  )
    throw new CliUsageError(
      '--ui-approval-timeout takes a number of seconds above 0 (at most 24 days)',
    );
  return { ...(port === undefined ? {} : { port }), approvalTimeoutMs: timeoutMs };
}

/** How long a pending approval waits for the page before it is denied. */
const DEFAULT_UI_APPROVAL_TIMEOUT_S = 120;

type ServeOptionValues = PolicyOptionValues & {
  readonly http?: string | true;
  readonly tokenFile?: string;
  readonly sessionIdleTimeout?: string;
  readonly maxCallsPerSession?: string;
  readonly maxCallsInFlight?: string;
  readonly maxWaitingCalls?: string;
  readonly ui?: true;
  readonly uiPort?: string;
  readonly uiApprovalTimeout?: string;
};

function toCallLimits(options: ServeOptionValues): ServeCallLimits {
  const perSession = positiveInteger(options.maxCallsPerSession, '--max-calls-per-session');
  const inFlight = positiveInteger(options.maxCallsInFlight, '--max-calls-in-flight');
  const waiting = positiveInteger(options.maxWaitingCalls, '--max-waiting-calls');
  return {
    ...(perSession === undefined ? {} : { maxCallsPerSession: perSession }),
    ...(inFlight === undefined ? {} : { maxCallsInFlight: inFlight }),
    ...(waiting === undefined ? {} : { maxWaitingCalls: waiting }),
  };
}

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\d+$/u.test(value) || !Number.isSafeInteger(parsed) || parsed < 1)
    throw new CliUsageError(`${flag} takes a whole number of at least 1`);
  return parsed;
}

type HttpTransport = {
  kind: 'http';
  port: number;
  tokenFile?: string;
  sessionIdleTimeoutMs?: number;
};

function toTransport(options: ServeOptionValues): HttpTransport | undefined {
  const { http, tokenFile, sessionIdleTimeout } = options;
  if (http === undefined) {
    // A token file without HTTP would silently protect nothing; say so instead.
    if (tokenFile !== undefined) throw new CliUsageError('--token-file needs --http');
    if (sessionIdleTimeout !== undefined)
      throw new CliUsageError('--session-idle-timeout needs --http');
    return undefined;
  }
  const port = http === true ? 0 : Number(http);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliUsageError('--http takes a port number between 0 and 65535');
  }
  const idleMs = idleTimeoutMs(sessionIdleTimeout);
  return {
    kind: 'http',
    port,
    ...(tokenFile === undefined ? {} : { tokenFile: path.resolve(tokenFile) }),
    ...(idleMs === undefined ? {} : { sessionIdleTimeoutMs: idleMs }),
  };
}

// Seconds, fractions allowed; capped where a Node timer still fires when asked (~24 days).
function idleTimeoutMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Math.ceil(Number(value) * 1000);
  if (!/^\d+(?:\.\d+)?$/u.test(value) || !(ms >= 1) || ms > 2 ** 31 - 1)
    throw new CliUsageError(
      '--session-idle-timeout takes a number of seconds above 0 (at most 24 days)',
    );
  return ms;
}

// The port the operator chose (or the free one the kernel picked) could not be bound: a fact of
// this machine the flag can fix, not an internal error. The port is the operator's own number.
function toListenUsageError(error: unknown, port: number): CliUsageError | undefined {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).syscall !== 'listen')
    return undefined;
  const where = `port ${port} on 127.0.0.1`;
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new CliUsageError(
        `${where} is already in use; pick another with --http <port> or omit the port for a free one`,
        { cause: error },
      );
    case 'EACCES':
      return new CliUsageError(
        `${where} needs privileges this user lacks; pick one above 1023 with --http <port> or omit the port for a free one`,
        { cause: error },
      );
    default:
      return undefined;
  }
}
