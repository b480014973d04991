import type { Command } from 'commander';
import { CliExitError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from './cli-io.js';
import {
  addPolicyOptions,
  settingsFromOptions,
  type PolicyOptionValues,
} from './policy-options.js';

/** `toolhost serve`: toolhost as a guarded MCP server (stdio), from `mcp-server.ts`. */
export function registerServe(program: Command, io: CliIo, setExit: (code: number) => void): void {
  addPolicyOptions(
    program
      .command('serve')
      .description('serve the granted tools over MCP (stdio) through the same guardrails'),
  ).action(async (options: PolicyOptionValues) => {
    const settings = settingsFromOptions(options, io);
    const startMcpServer = await loadStartMcpServer();
    await startMcpServer({ settings, io });
    setExit(EXIT_CODES.success);
  });
}

type StartMcpServer = (options: { settings: unknown; io: CliIo }) => Promise<unknown>;

// Loaded lazily: `call` and friends never pay for the MCP SDK, and the server module is written
// by the MCP work in parallel with this one.
async function loadStartMcpServer(): Promise<StartMcpServer> {
  // A variable specifier: the type checker must not require the module to exist yet.
  const specifier: string = '../mcp-server.js';
  try {
    const module = (await import(specifier)) as {
      startMcpServer?: StartMcpServer;
    };
    if (typeof module.startMcpServer === 'function') return module.startMcpServer;
  } catch {
    // Fall through: the server module is absent from this build.
  }
  throw new CliExitError('toolhost: serve is not available in this build', EXIT_CODES.unavailable);
}
