import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A stateless Streamable HTTP MCP server on 127.0.0.1 with one `whoami` tool echoing a header. */
export async function startFixtureHttpServer(): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((request, response) => {
    const server = new Server(
      { name: 'fixture-http', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'whoami',
          description: 'Says which token it saw.',
          inputSchema: { type: 'object' },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({
      content: [{ type: 'text', text: `token=${String(request.headers['x-fixture-token'])}` }],
    }));
    const transport = new StreamableHTTPServerTransport({});
    response.on('close', () => void transport.close());
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
