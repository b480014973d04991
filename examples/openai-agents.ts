// An OpenAI Agents SDK agent whose writes wait for your approval (the run's interruptions).
// Run (after `npm run build`): OPENAI_API_KEY=… node --import tsx examples/openai-agents.ts [root]
import { createInterface } from 'node:readline/promises';
import { Agent, run } from '@openai/agents';
import { BUILTIN_TOOLS, createToolRegistry } from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';
import {
  toolhostAgentTools,
  toolhostApprovalPreview,
  toolhostRunError,
  toolhostRunOptions,
} from '@toolhost/openai-agents';

if (process.env['OPENAI_API_KEY'] === undefined) {
  console.error('Set OPENAI_API_KEY to run this example.');
  process.exit(1);
}

const handle = await createNodeToolHost({ root: process.argv[2] ?? process.cwd() });
const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
const tools = toolhostAgentTools(registry, {
  grantedToolIds: ['list_directory', 'read_file', 'write_file'],
  toolPolicy: {},
  approval: 'sdk', // write_file is governed: the run stops and asks
});
const agent = new Agent({
  name: 'notes',
  model: 'gpt-4.1',
  instructions: 'You keep a TODO.md file in the workspace up to date.',
  tools,
});
// toolhost's turn limit, and the SDK's own corrections charged to toolhost's budget.
const options = { maxTurns: 16, ...toolhostRunOptions(tools) };

// Lines are read through one iterator, so answers piped in before the question are kept; a
// closed stdin answers no.
const prompt = createInterface({ input: process.stdin });
const answers = prompt[Symbol.asyncIterator]();
async function allow(question: string): Promise<boolean> {
  process.stdout.write(question);
  const answer = await answers.next();
  return answer.done !== true && answer.value.trim().toLowerCase() === 'y';
}

try {
  let result = await run(agent, 'Add "ship the adapters" to TODO.md.', options);
  while (result.interruptions.length > 0) {
    for (const item of result.interruptions) {
      // The redacted preview, never `item.arguments`: raw arguments can carry secrets.
      const { toolId, action, preview } = toolhostApprovalPreview(tools, item);
      const target = preview.path ?? preview.command ?? preview.host ?? '';
      if (await allow(`Allow ${toolId} (${action} ${target})? [y/N] `)) {
        result.state.approve(item);
      } else {
        result.state.reject(item);
      }
    }
    result = await run(agent, result.state, options);
  }
  console.log(result.finalOutput);
} catch (error) {
  console.error('turn ended:', toolhostRunError(error));
  process.exitCode = 1;
} finally {
  prompt.close();
  await handle.close();
}
