// An OpenAI Agents SDK agent whose writes wait for your approval (the run's interruptions).
// Run (after `npm run build`): OPENAI_API_KEY=… node --import tsx examples/openai-agents.ts [root]
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { Agent, run, type Model } from '@openai/agents';
import { BUILTIN_TOOLS, createToolRegistry } from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';
import {
  toolhostAgentTools,
  toolhostApprovalPreview,
  toolhostRunError,
  toolhostRunOptions,
} from '@toolhost/openai-agents';

/** What `runAgent` needs: the model, the workspace, and who answers an approval question. */
export interface AgentOptions {
  readonly model: string | Model;
  readonly root: string;
  readonly allow: (question: string) => Promise<boolean>;
}

/** Runs the agent on `model` over `root`, asking `allow` before each write; returns its answer. */
export async function runAgent({ model, root, allow }: AgentOptions) {
  const handle = await createNodeToolHost({ root });
  try {
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
    const tools = toolhostAgentTools(registry, {
      grantedToolIds: ['list_directory', 'read_file', 'write_file'],
      toolPolicy: {},
      approval: 'sdk', // write_file is governed: the run stops and asks
    });
    const agent = new Agent({
      name: 'notes',
      model,
      instructions: 'You keep a TODO.md file in the workspace up to date.',
      tools,
    });
    // toolhost's turn limit, and the SDK's own corrections charged to toolhost's budget.
    const options = { maxTurns: 16, ...toolhostRunOptions(tools) };

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
    return result.finalOutput;
  } finally {
    await handle.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.env['OPENAI_API_KEY'] === undefined) {
    console.error('Set OPENAI_API_KEY to run this example.');
    process.exit(1);
  }
  // Lines are read through one iterator, so answers piped in before the question are kept; a
  // closed stdin answers no.
  const prompt = createInterface({ input: process.stdin });
  const answers = prompt[Symbol.asyncIterator]();
  const allow = async (question: string) => {
    process.stdout.write(question);
    const answer = await answers.next();
    return answer.done !== true && answer.value.trim().toLowerCase() === 'y';
  };
  try {
    const root = process.argv[2] ?? process.cwd();
    console.log(await runAgent({ model: 'gpt-4.1', root, allow }));
  } catch (error) {
    console.error('turn ended:', toolhostRunError(error));
    process.exitCode = 1;
  } finally {
    prompt.close();
  }
}
