import type { Command } from 'commander';
import { CliUsageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
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
      'serve Streamable HTTP on 127.0.0.1 instead of stdio (Host/Origin checked; default: a free port)',
    )
    .action(async (options: PolicyOptionValues & { readonly http?: string | true }) => {
      const settings = settingsFromOptions(options, io);
      const transport = toTransport(options.http);
      // Loaded lazily so `call` and friends never pay for the MCP SDK.
      const { startMcpServer } = await import('../mcp-server.js');
      await startMcpServer({ settings, io, ...(transport === undefined ? {} : { transport }) });
      setExit(EXIT_CODES.success);
    });
}

function toTransport(http: string | true | undefined): { kind: 'http'; port: number } | undefined {
  if (http === undefined) return undefined;
  if (http === true) return { kind: 'http', port: 0 };
  const port = Number(http);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliUsageError('--http takes a port number between 0 and 65535');
  }
  return { kind: 'http', port };
}
