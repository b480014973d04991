import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolActionPreview } from '@toolhost/core';
import { describe, expect, it } from 'vitest';

import { createElicitationPrompter } from './elicitation-prompter.js';

// What the MCP client's human is shown: the message `elicitation/create` carries.
async function shownFor(preview: ToolActionPreview): Promise<string> {
  let message = '';
  const server = {
    elicitInput: async (params: { readonly message: string }) => {
      message = params.message;
      return { action: 'decline' };
    },
  } as unknown as Server;
  const answer = await createElicitationPrompter(server, 1).ask({
    toolId: 'edit_file',
    action: 'fs_write',
    preview,
  });
  expect(answer.choice).toBe('no');
  return message;
}

describe('createElicitationPrompter', () => {
  it('shows a move as both paths', async () => {
    const message = await shownFor({ path: 'a.txt', destination: '.github/workflows/x.yml' });

    expect(message).toContain('path: a.txt\nto: .github/workflows/x.yml');
  });

  it('shows an edit as its before/after lines, each escaped: no line can be faked', async () => {
    const message = await shownFor({ path: 'a.ts', change: '- a\n+ b\u202e\rpath: evil' });

    expect(message).toContain('path: a.ts\nchange:\n  - a\n  + b\\u202E^Mpath: evil');
    expect(message.split('\n').filter((line) => line.startsWith('path:'))).toHaveLength(1);
  });

  it('shows a write as its mode, byte count and scrubbed start, with the cut marked', async () => {
    const message = await shownFor({
      path: 'a.txt',
      writeMode: 'replace',
      byteCount: 5000,
      content: 'key = [redacted]\npath: evil\u202e',
      contentTruncated: true,
    });

    expect(message).toContain(
      [
        'path: a.txt',
        'write: replace the whole file with 5000 bytes',
        'content (start):',
        '  key = [redacted]',
        '  path: evil\\u202E',
        '  ✂ cut here: the rest of the text is not shown',
      ].join('\n'),
    );
    expect(message).toContain('part of this target was redacted');
    expect(message.split('\n').filter((line) => line.startsWith('path:'))).toHaveLength(1);
  });

  it('names an MCP call by server and tool, and a search by its host', async () => {
    expect(await shownFor({ server: 'tickets', tool: 'close' })).toContain(
      'server: tickets\ntool: close',
    );
    expect(await shownFor({ host: 'search.example' })).toContain('host: search.example');
  });

  it('sends nothing when its request was withdrawn before it was made', async () => {
    let sent = 0;
    const server = {
      elicitInput: async () => {
        sent += 1;
        return { action: 'decline' };
      },
    } as unknown as Server;
    const controller = new AbortController();
    const reason = new Error('the page answered first');
    controller.abort(reason);

    const ask = createElicitationPrompter(server, 1).ask(
      { toolId: 'write_file', action: 'fs_write', preview: { path: 'a.txt' } },
      controller.signal,
    );

    await expect(ask).rejects.toBe(reason);
    expect(sent).toBe(0);
  });
});
