// A Vercel AI SDK agent over the AI Gateway, guarded by toolhost.
// Run (after `npm run build`): AI_GATEWAY_API_KEY=… node --import tsx examples/ai-sdk.ts [root]
import { pathToFileURL } from 'node:url';
import { generateText, type LanguageModel } from 'ai';
import { toolhostStopWhen, toolhostTools, toolhostTurnError } from '@toolhost/ai-sdk';
import { BUILTIN_TOOLS, createToolRegistry } from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';

/** Runs the agent on `model` over the workspace at `root`; a test hands it `ai/test`'s mock. */
export async function runAgent({ model, root }: { model: LanguageModel; root: string }) {
  // `process: {}` adds the process arm: commands run inside the bubblewrap sandbox.
  const handle = await createNodeToolHost({ root, process: {} });
  try {
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
    const tools = toolhostTools(registry, {
      grantedToolIds: ['list_directory', 'read_file', 'run_command'],
      toolPolicy: { allowedCommands: ['git log --oneline -5'] }, // exact strings; empty denies all
      toolConfig: { run_command: { timeoutMs: 10_000 } }, // config-only: the model never sees it
    });
    const result = await generateText({
      model,
      tools,
      stopWhen: toolhostStopWhen(tools), // the failure ladder, correction budget and turn limit
      prompt: 'What changed in the last five commits, and which files hold the main entry points?',
    });
    const turnError = toolhostTurnError(tools, result.steps);
    if (turnError !== undefined) console.error('turn ended:', turnError);
    return result.text;
  } finally {
    await handle.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.env['AI_GATEWAY_API_KEY'] === undefined) {
    console.error('Set AI_GATEWAY_API_KEY to run this example.');
    process.exit(1);
  }
  const root = process.argv[2] ?? process.cwd();
  console.log(await runAgent({ model: 'anthropic/claude-sonnet-4.5', root }));
}
