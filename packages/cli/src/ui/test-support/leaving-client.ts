// A real MCP client process that leaves while its call waits: run as
// `node --import tsx leaving-client.ts <mcp url> <file>`. It connects over Streamable HTTP, calls
// `write_file <file>`, says `calling` on stdout, and exits at once (no cancel, no DELETE) when a
// line arrives on its stdin; or it is killed by its PID.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, file] = process.argv.slice(2);
if (url === undefined || file === undefined) throw new Error('usage: leaving-client <url> <file>');
const client = new Client({ name: 'leaving-client', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
client
  .callTool({ name: 'write_file', arguments: { path: file, content: 'written after it left' } })
  // Its answer never matters: the process is gone before it could arrive.
  .catch(() => undefined);
process.stdout.write('calling\n');
process.stdin.once('data', () => process.exit(0));
