import type { Command } from 'commander';
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
    .action(async (options: PolicyOptionValues) => {
      const settings = settingsFromOptions(options, io);
      // Loaded lazily so `call` and friends never pay for the MCP SDK.
      const { startMcpServer } = await import('../mcp-server.js');
      await startMcpServer({ settings, io });
      setExit(EXIT_CODES.success);
    });
}
