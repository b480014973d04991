import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { BUILTIN_TOOLS, createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';
import type { ApprovalMode } from '../../config/config-schema.js';
import { createToolServer } from '../create-tool-server.js';

/** What `connectInProcess` builds over a root. */
export interface InProcessServerOptions {
  readonly root: string;
  readonly stateDir: string;
  readonly grant: readonly string[];
  readonly mode: ApprovalMode;
  /** Declares elicitation on the client; answers each request (given its message). */
  readonly elicit?: (message: string) => ElicitResult;
  readonly allowedCommands?: readonly string[];
}

/** A real Node host + registry + `createToolServer`, reached by the SDK Client in memory. */
export async function connectInProcess(
  options: InProcessServerOptions,
): Promise<{ client: Client; close(): Promise<void> }> {
  const handle = await createNodeToolHost({ root: options.root, stateDir: options.stateDir });
  const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
  const granted = new Set(options.grant);
  const server = createToolServer({
    registry,
    tools: BUILTIN_TOOLS.filter((tool) => granted.has(tool.id)),
    createContext: (): ToolDispatchContext => ({
      nodeId: 'test',
      grantedToolIds: granted,
      config: {},
      toolPolicy: { allowedCommands: options.allowedCommands ?? [] },
      fsScope: 'sandboxed',
      gateApproved: false,
    }),
    mode: options.mode,
    paths: { root: options.root, stateDir: options.stateDir },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client(
    { name: 'in-process', version: '1.0.0' },
    { capabilities: options.elicit === undefined ? {} : { elicitation: { form: {} } } },
  );
  const { elicit } = options;
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  }
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
      await handle.close();
    },
  };
}
