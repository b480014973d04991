import { toProviderTools, type ToolProvider } from '@toolhost/core';
import { Option, type Command } from 'commander';
import { EXIT_CODES } from '../exit-codes.js';
import { describeMcpCollisions } from '../session/describe-mcp-collisions.js';
import { openSession } from '../session/open-session.js';
import { printJson, type CliIo } from './cli-io.js';
import {
  addPolicyOptions,
  settingsFromOptions,
  type PolicyOptionValues,
} from './policy-options.js';

/** The `--provider` names; `openai` is Chat Completions. */
export const PROVIDER_CHOICES = [
  'openai',
  'openai-chat',
  'openai-responses',
  'anthropic',
  'gemini',
  'ai-sdk',
] as const;

interface ToolsOptions extends PolicyOptionValues {
  readonly provider?: (typeof PROVIDER_CHOICES)[number];
}

/** `toolhost tools [--provider p]`: the granted tools, their model-facing schemas lowered. */
export function registerTools(program: Command, io: CliIo, setExit: (code: number) => void): void {
  addPolicyOptions(program.command('tools').description('list the granted tools and their schemas'))
    .addOption(
      new Option('--provider <provider>', 'lower the schemas for a provider (prints JSON)').choices(
        PROVIDER_CHOICES,
      ),
    )
    .action(async (options: ToolsOptions) => {
      const settings = settingsFromOptions(options, io);
      // Listing dispatches nothing: no arm is built (MCP discovery still runs for an mcp_ grant).
      const session = await openSession({ settings, dispatchable: [] });
      try {
        // On stderr: stdout stays the listing (or the JSON) a script reads.
        for (const line of describeMcpCollisions(session.mcpReport)) {
          io.stderr.write(`toolhost tools: mcp: ${line}\n`);
        }
        const tools = session.grantedTools;
        if (options.provider !== undefined) {
          printJson(io, toProviderTools(tools, toToolProvider(options.provider)));
        } else if (options.json === true) {
          printJson(
            io,
            tools.map((tool) => ({
              name: tool.id,
              description: tool.description,
              parameters: tool.llmVisibleParams,
              policy: tool.policy,
            })),
          );
        } else {
          const width = Math.max(0, ...tools.map((tool) => tool.id.length));
          for (const tool of tools) {
            io.stdout.write(`${tool.id.padEnd(width)}  ${firstSentence(tool.description)}\n`);
          }
        }
        setExit(EXIT_CODES.success);
      } finally {
        await session.close();
      }
    });
}

function toToolProvider(choice: (typeof PROVIDER_CHOICES)[number]): ToolProvider {
  return choice === 'openai' ? 'openai-chat' : choice;
}

function firstSentence(text: string): string {
  const end = text.indexOf('. ');
  return end === -1 ? text : text.slice(0, end + 1);
}
