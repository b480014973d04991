import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createToolRegistry,
  type ToolDispatchContext,
  type ToolResultLimits,
} from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';
import type { ApprovalMode } from '../../config/config-schema.js';
import { LOCAL_TOOLS } from '../../session/local-tools.js';
import { createToolServer, type ToolServerOptions } from '../create-tool-server.js';

/** What `connectInProcess` builds over a root. */
export interface InProcessServerOptions {
  readonly root: string;
  readonly stateDir: string;
  readonly grant: readonly string[];
  readonly mode: ApprovalMode;
  /** Declares elicitation on the client; answers each request (given its message). */
  readonly elicit?: (message: string) => ElicitResult;
  readonly allowedCommands?: readonly string[];
  readonly maxMediaBytes?: number;
  /** The model-facing ceilings (default: the spec's). */
  readonly limits?: ToolResultLimits;
}

/** A real Node host + registry as `ToolServerOptions`; `close` tears the host down. */
export async function createTestServerOptions(
  options: InProcessServerOptions,
): Promise<{ serverOptions: ToolServerOptions; close(): Promise<void> }> {
  const handle = await createNodeToolHost({ root: options.root, stateDir: options.stateDir });
  // Every local tool `toolhost serve` registers: the spec's 13 and the workspace tools.
  const tools = LOCAL_TOOLS;
  const registry = createToolRegistry({ tools, host: handle.host });
  const granted = new Set(options.grant);
  return {
    serverOptions: {
      registry,
      tools: tools.filter((tool) => granted.has(tool.id)),
      createContext: (): ToolDispatchContext => ({
        nodeId: 'test',
        grantedToolIds: granted,
        config: {},
        toolPolicy: { allowedCommands: options.allowedCommands ?? [] },
        fsScope: 'sandboxed',
        gateApproved: false,
        mediaScope: `workspace:${options.root}`,
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      }),
      mode: options.mode,
      paths: { root: options.root, stateDir: options.stateDir },
      ...(handle.host.media === undefined ? {} : { media: handle.host.media }),
      ...(options.maxMediaBytes === undefined ? {} : { maxMediaBytes: options.maxMediaBytes }),
    },
    close: () => handle.close(),
  };
}

/** Declares elicitation on a client when asked to, answering through `elicit`. */
export function createTestClient(elicit?: (message: string) => ElicitResult): Client {
  const client = new Client(
    { name: 'toolhost-test', version: '1.0.0' },
    { capabilities: elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  }
  return client;
}

/** `createToolServer` over a real host, reached by the SDK Client in memory. */
export async function connectInProcess(
  options: InProcessServerOptions,
): Promise<{ client: Client; close(): Promise<void> }> {
  const built = await createTestServerOptions(options);
  const server = createToolServer(built.serverOptions);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = createTestClient(options.elicit);
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
      await built.close();
    },
  };
}
