import { describe, expect, it } from 'vitest';
import type {
  ToolApprovalRequest,
  ToolApprovalRequestedEvent,
  ToolDispatchContext,
} from '../dispatch-context.js';
import { createToolRegistry } from '../registry.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import { stubHost, testContext } from '../tools/test-support/stub-host.js';
import { MAX_PREVIEW_CONTENT_BYTES } from './content-preview.js';

const GITHUB_TOKEN = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A';
const AWS_KEY_ID = 'AKIA' + 'Z7Q2M4X8C6V1B3N5';

interface Asked {
  readonly requests: ToolApprovalRequest[];
  readonly events: ToolApprovalRequestedEvent[];
}

// The real registry's dispatch, approving everything, recording what a person would be shown.
async function ask(name: string, args: Record<string, unknown>): Promise<Asked> {
  const requests: ToolApprovalRequest[] = [];
  const events: ToolApprovalRequestedEvent[] = [];
  const body = JSON.stringify({ results: [] });
  const { host } = stubHost({ fetch: () => ({ status: 200, headers: {}, body }) });
  const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
  const ctx: ToolDispatchContext = testContext({
    grantedToolIds: new Set([name]),
    // Every server tool, for mcp_call: what is asked about here is the preview, not the scope.
    toolPolicy: { allowedMcpTools: ['tickets/*'] },
    config: {
      parameters: {
        endpoint: `https://Search.Example/v1/find?key=${GITHUB_TOKEN}`,
      },
    },
    approval: {
      emitApprovalRequested: (event) => events.push(event),
      confirm: async (request) => {
        requests.push(request);
        return { outcome: 'approve' };
      },
    },
  });
  await registry.dispatch({ id: 'c1', name, args }, ctx);
  return { requests, events };
}

describe('approval previews through dispatch', () => {
  it('shows a write_file as its mode, byte count and scrubbed start', async () => {
    const content = `line one é\naws_key = ${AWS_KEY_ID}\ntoken: ${GITHUB_TOKEN}\n`;

    const { requests, events } = await ask('write_file', { path: 'notes.txt', content });

    expect(requests[0]?.preview).toEqual({
      path: 'notes.txt',
      writeMode: 'replace',
      byteCount: content.length + 1,
      content: 'line one é\naws_key = [redacted]\ntoken: [redacted]\n',
      contentTruncated: false,
    });
    // The unscrubbed view has the size and mode, never a raw copy of the text.
    expect(requests[0]?.unredactedPreview).toEqual({
      path: 'notes.txt',
      writeMode: 'replace',
      byteCount: content.length + 1,
    });
    // The live event carries exactly the scrubbed, bounded form, nothing more.
    expect(events[0]).toEqual({
      toolId: 'write_file',
      action: 'fs_write',
      preview: requests[0]?.preview,
    });
    expect(JSON.stringify(events)).not.toContain(GITHUB_TOKEN.slice(4, 12));
    expect(JSON.stringify(events)).not.toContain(AWS_KEY_ID);
  });

  it('says an append appends, and cuts a long text at the cap without a secret fragment', async () => {
    const cutInto = 12;
    const content =
      'x'.repeat(MAX_PREVIEW_CONTENT_BYTES - cutInto) + ` ${GITHUB_TOKEN} ` + 'y'.repeat(5000);

    const { requests, events } = await ask('write_file', { path: 'a.log', content, append: true });

    const preview = requests[0]?.preview;
    expect(preview).toMatchObject({
      writeMode: 'append',
      byteCount: content.length,
      contentTruncated: true,
    });
    // Scrubbed first, the token is a marker that lands exactly at the cap.
    expect(
      preview?.content === 'x'.repeat(MAX_PREVIEW_CONTENT_BYTES - cutInto) + ' [redacted] ',
    ).toBe(true);
    expect(JSON.stringify(events)).not.toContain('ghp_');
    expect(JSON.stringify(events)).not.toContain('yyy');
  });

  it('names the web_search endpoint host only, never its path, key or the query', async () => {
    const query = 'where is my secret-project-name';

    const { requests, events } = await ask('web_search', { query });

    expect(requests[0]?.preview).toEqual({ host: 'search.example' });
    expect(requests[0]?.unredactedPreview).toEqual({ host: 'search.example' });
    const shown = JSON.stringify([requests[0]?.preview, events]);
    expect(shown).not.toContain('secret-project-name');
    expect(shown).not.toContain('/v1/find');
    expect(shown).not.toContain('ghp_');
  });

  it('names the mcp_call server and tool, scrubbed, with the raw names kept in-process', async () => {
    const tool = `lookup_${GITHUB_TOKEN}`;

    const { requests, events } = await ask('mcp_call', {
      server: 'tickets',
      tool,
      args: { q: 'the-argument-value' },
    });

    expect(requests[0]?.preview).toEqual({ server: 'tickets', tool: 'lookup_[redacted]' });
    expect(requests[0]?.unredactedPreview).toEqual({ server: 'tickets', tool });
    expect(events[0]?.preview).toEqual(requests[0]?.preview);
    expect(JSON.stringify(events)).not.toContain('the-argument-value');
  });
});
