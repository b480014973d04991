// A file-reading agent on the Anthropic Messages API, guarded by toolhost.
// Run (after `npm run build`): ANTHROPIC_API_KEY=… node --import tsx examples/anthropic-messages.ts [root]
import { pathToFileURL } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { createAnthropicToolhost } from '@toolhost/anthropic';
import { BUILTIN_TOOLS, createToolRegistry } from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';

/** Runs the Messages loop with `client` over `root`; returns the final text blocks. */
export async function runAgent({ client, root }: { client: Anthropic; root: string }) {
  const handle = await createNodeToolHost({ root });
  try {
    const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });
    const toolhost = createAnthropicToolhost(registry, {
      grantedToolIds: ['list_directory', 'read_file'],
      toolPolicy: {},
      recoverToolFailures: true,
    });
    const messages: Anthropic.MessageParam[] = [
      {
        role: 'user',
        content: 'List this project and summarise its README in three bullet points.',
      },
    ];
    const turn = toolhost.startTurn();
    while (turn.take()) {
      const message = await client.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        tools: toolhost.tools,
        messages,
      });
      messages.push({ role: 'assistant', content: message.content });
      const results = await turn.toolResults(message); // throws the typed error on a fatal failure
      if (results === undefined) {
        return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
      }
      messages.push(results);
    }
    return [];
  } finally {
    await handle.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.env['ANTHROPIC_API_KEY'] === undefined) {
    console.error('Set ANTHROPIC_API_KEY to run this example.');
    process.exit(1);
  }
  const client = new Anthropic(); // reads ANTHROPIC_API_KEY
  const root = process.argv[2] ?? process.cwd();
  for (const text of await runAgent({ client, root })) console.log(text);
}
