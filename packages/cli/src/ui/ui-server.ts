import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createHttpToken } from '../mcp/http-token.js';
import type { ApprovalBroker } from './approval-broker.js';
import { createUiApp } from './ui-app.js';
import type { UiEventHub } from './ui-event-hub.js';
import { loopbackAllowlist, type LoopbackAllowlist } from './ui-guard.js';
import type { UiPolicyView } from './ui-policy-view.js';
import type { UiSessionTable } from './ui-session-table.js';
import type { SseChannel } from './ui-sse.js';

/** Options of `startUiServer`. */
export interface UiServerOptions {
  readonly hub: UiEventHub;
  /** Present under `serve --ui`: the page answers pending approvals. */
  readonly broker?: ApprovalBroker;
  readonly policy: UiPolicyView;
  readonly sessions?: UiSessionTable;
  /** 0 (default) picks a free port; the host is always 127.0.0.1. */
  readonly port?: number;
  readonly source?: 'serve' | 'audit';
}

/** A running control tower. */
export interface RunningUiServer {
  /** `http://127.0.0.1:<port>/?token=<token>`: whoever has it may approve calls, so a secret. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the control tower on 127.0.0.1 only, behind a per-start random token (as `serve --http`:
 * any local user can reach loopback, and this page approves tool calls).
 */
export async function startUiServer(options: UiServerOptions): Promise<RunningUiServer> {
  const { port: requested = 0 } = options;
  if (!Number.isInteger(requested) || requested < 0 || requested > 65_535)
    throw new TypeError('toolhost: the ui port must be between 0 and 65535');
  const token = createHttpToken();
  let allowed: LoopbackAllowlist = { hosts: [], origins: [] };
  const channels = new Set<SseChannel>();
  const app = createUiApp({
    token,
    // Empty until the port is known: nothing is answered before then anyway.
    allowed: () => allowed,
    hub: options.hub,
    policy: options.policy,
    source: options.source ?? (options.broker === undefined ? 'audit' : 'serve'),
    channels,
    ...(options.broker === undefined ? {} : { broker: options.broker }),
    ...(options.sessions === undefined ? {} : { sessions: options.sessions }),
  });
  // Not overriding the globals: the MCP SDK in this process uses the real fetch classes.
  const server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(requested, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  allowed = loopbackAllowlist(port);
  const url = new URL(`http://127.0.0.1:${port}/`);
  url.searchParams.set('token', token);
  return {
    url: url.href,
    port,
    close: async () => {
      for (const channel of [...channels]) channel.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
