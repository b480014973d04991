// The setup every `serve --ui` process test repeats: the process, its SDK clients, the page's key.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Workspace } from '../../../test/workspace.js';
import { loopbackRequest, type LoopbackResponse } from './loopback-request.js';
import { startServeUi, type ServeUiProcess } from './serve-ui-process.js';

/** A `serve --http --ui` process with MCP clients connected, and what the page needs to call it. */
export interface ServeUiWithClients {
  readonly serve: ServeUiProcess;
  /** One connected client per name given, in that order. */
  readonly clients: readonly Client[];
  /** The UI listener's port and token, from the printed UI URL. */
  readonly uiPort: number;
  readonly uiToken: string;
  /** A request to the UI listener carrying the token as a bearer, as the page sends it. */
  uiRequest(target: string, options?: UiRequestOptions): Promise<LoopbackResponse>;
  /** Closes every client, then stops the process by its PID. */
  close(): Promise<void>;
}

/** A page request: `json` is sent as the body, typed `application/json`. */
export interface UiRequestOptions {
  readonly method?: string;
  readonly json?: unknown;
}

/** Serves `ws` with only `write_file` granted, in `ask` mode: every write waits for the page. */
export function writeAskFlags(ws: Pick<Workspace, 'root' | 'stateFlags'>): string[] {
  return ['--root', ws.root, ...ws.stateFlags, '--tools', 'write_file', '--mode', 'ask'];
}

/** Starts `toolhost serve --http --ui <args>` and connects a Streamable HTTP client per name. */
export async function startServeUiWithClients(
  args: readonly string[],
  clientNames: readonly string[],
): Promise<ServeUiWithClients> {
  const serve = await startServeUi(args);
  const clients: Client[] = [];
  const close = async () => {
    for (const client of clients) await client.close();
    await serve.stop();
  };
  try {
    for (const name of clientNames) {
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(serve.mcpUrl)));
      clients.push(client);
    }
  } catch (error) {
    // A client that could not connect must not leave the process behind.
    await close();
    throw error;
  }
  const ui = new URL(serve.uiUrl);
  const uiPort = Number(ui.port);
  const uiToken = ui.searchParams.get('token') ?? '';
  return {
    serve,
    clients,
    uiPort,
    uiToken,
    uiRequest: (target, options = {}) =>
      loopbackRequest(uiPort, target, {
        ...(options.method === undefined ? {} : { method: options.method }),
        headers: {
          authorization: `Bearer ${uiToken}`,
          ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
      }),
    close,
  };
}
