// A Vercel AI SDK agent over the AI Gateway, guarded by toolhost.
// Run (after `npm run build`): AI_GATEWAY_API_KEY=… node --import tsx examples/ai-sdk.ts [root]
import { generateText } from 'ai';
import { toolhostStopWhen, toolhostTools, toolhostTurnError } from '@toolhost/ai-sdk';
import { BUILTIN_TOOLS, createToolRegistry } from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';

if (process.env['AI_GATEWAY_API_KEY'] === undefined) {
  console.error('Set AI_GATEWAY_API_KEY to run this example.');
  process.exit(1);
}

const handle = await createNodeToolHost({ root: process.argv[2] ?? process.cwd() });
const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
const tools = toolhostTools(registry, {
  grantedToolIds: ['list_directory', 'read_file', 'run_command'],
  toolPolicy: { allowedCommands: ['git log --oneline -5'] }, // exact strings; empty denies all
  toolConfig: { run_command: { timeoutMs: 10_000 } }, // config-only: the model never sees it
});

try {
  const result = await generateText({
    model: 'anthropic/claude-sonnet-4.5',
    tools,
    stopWhen: toolhostStopWhen(tools), // the failure ladder, correction budget and turn limit
    prompt: 'What changed in the last five commits, and which files hold the main entry points?',
  });
  const turnError = toolhostTurnError(tools, result.steps);
  if (turnError !== undefined) console.error('turn ended:', turnError);
  console.log(result.text);
} finally {
  await handle.close();
}
