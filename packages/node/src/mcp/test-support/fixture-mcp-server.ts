// A small MCP server for the client arm's tests, written with the SDK's low-level `Server` so it
// can misbehave on purpose: paged listing, colliding names, a bad schema, an `isError` tool, a
// tool that kills the process mid-call and a slow one. Run: node --import tsx fixture-mcp-server.ts
import { spawn } from 'node:child_process';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

const PAGE_SIZE = 3;

const TOOLS: Tool[] = [
  {
    name: 'echo',
    description: 'Echoes its text.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
  },
  {
    name: 'dup.name',
    description: 'First of two names that sanitise alike.',
    inputSchema: { type: 'object' },
  },
  {
    name: 'dup_name',
    description: 'Second of two names that sanitise alike.',
    inputSchema: { type: 'object' },
  },
  {
    name: 'bad_schema',
    description: 'Its schema points at a definition that does not exist.',
    inputSchema: { type: 'object', properties: { x: { $ref: '#/definitions/missing' } } },
  },
  { name: 'fails', description: 'Always reports an error.', inputSchema: { type: 'object' } },
  {
    name: 'crash',
    description: 'Kills its own process mid-call.',
    inputSchema: { type: 'object' },
  },
  {
    name: 'slow',
    description: 'Answers after `ms` milliseconds.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } } },
  },
  { name: '__proto__', description: 'A prototype name.', inputSchema: { type: 'object' } },
  {
    name: 'env',
    description: 'Lists its environment variable names.',
    inputSchema: { type: 'object' },
  },
  {
    name: 'spawn_child',
    description: "Starts a long-lived child (in the server's process group) and returns its pid.",
    inputSchema: { type: 'object' },
  },
  {
    name: 'hostile_pattern',
    description: 'Its patterns backtrack exponentially on a native engine.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^(b+)+$': { type: 'integer' } },
    },
  },
  {
    name: 'backref_pattern',
    description: 'Its pattern needs a backreference, which a linear-time engine cannot run.',
    inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a)\\1$' } } },
  },
  {
    name: 'meta',
    description: "Returns the request's `_meta` as the client sent it.",
    inputSchema: { type: 'object' },
  },
];

// FIXTURE_EXTRA_TOOL names one more tool (answers like `echo`): two servers can then be given
// names whose ids collide (`docs` + `search_query`, `docs_search` + `query`).
const extraTool = process.env.FIXTURE_EXTRA_TOOL;
if (extraTool !== undefined) {
  TOOLS.push({ name: extraTool, description: 'An extra tool.', inputSchema: { type: 'object' } });
}

const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, (request) => {
  const start = Number(request.params?.cursor ?? '0');
  const page = TOOLS.slice(start, start + PAGE_SIZE);
  const next = start + PAGE_SIZE;
  return next < TOOLS.length ? { tools: page, nextCursor: String(next) } : { tools: page };
});

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case extraTool:
    case 'echo':
      return { content: [{ type: 'text', text: String(args.text) }] };
    case 'fails':
      return { isError: true, content: [{ type: 'text', text: 'the widget is out of range' }] };
    case 'crash':
      // How it dies is the declaration's (its env), so a test can pick a code or a signal.
      if (process.env.FIXTURE_CRASH_SIGNAL !== undefined) {
        process.kill(process.pid, process.env.FIXTURE_CRASH_SIGNAL);
      }
      process.exit(Number(process.env.FIXTURE_CRASH_EXIT ?? 3));
      break;
    case 'slow':
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, Number(args.ms ?? 0));
        extra.signal.addEventListener('abort', () => clearTimeout(timer));
      });
      return { content: [{ type: 'text', text: 'done' }] };
    case 'env':
      return {
        content: [
          {
            type: 'text',
            text: JSON.stringify({
              keys: Object.keys(process.env).sort(),
              token: process.env.FIXTURE_TOKEN ?? null,
            }),
          },
        ],
      };
    case 'meta':
      return { content: [{ type: 'text', text: JSON.stringify(request.params._meta ?? null) }] };
    case 'spawn_child': {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
        stdio: 'ignore',
      });
      return { content: [{ type: 'text', text: String(child.pid) }] };
    }
    default:
      return { isError: true, content: [{ type: 'text', text: 'no such tool' }] };
  }
});

await server.connect(new StdioServerTransport());
