import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_TOOLS } from '../session/local-tools.js';
import { connectInProcess } from './test-support/in-process-server.js';

// [readOnlyHint, destructiveHint, idempotentHint, openWorldHint] of every local tool, as the
// SDK's own client reads them from tools/list. Written out, so a change to a tool's effect is a
// change a reviewer sees here.
const EXPECTED: Record<string, readonly [boolean, boolean, boolean, boolean]> = {
  create_directory: [false, false, true, false],
  edit_file: [false, true, false, false],
  git_commit: [false, false, false, false],
  git_status: [true, false, true, false],
  http_request: [false, true, false, true],
  // The invoked agent decides: MCP's worst-case defaults.
  invoke_agent: [false, true, false, true],
  list_directory: [true, false, true, false],
  // The remote tool decides: MCP's worst-case defaults.
  mcp_call: [false, true, false, true],
  move_file: [false, true, false, false],
  notify: [false, false, false, false],
  read_clipboard: [true, false, true, false],
  read_file: [true, false, true, false],
  read_media: [true, false, true, false],
  run_command: [false, true, false, false],
  search_files: [true, false, true, false],
  web_search: [true, false, true, true],
  // `append` adds again on a repeat, so the tool as a whole is not idempotent.
  write_file: [false, true, false, false],
};

describe('toolhost serve tool annotations', () => {
  let sandbox = '';
  let server: Awaited<ReturnType<typeof connectInProcess>>;
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-annotations-')));
    await mkdir(path.join(sandbox, 'app'));
    server = await connectInProcess({
      root: path.join(sandbox, 'app'),
      stateDir: path.join(sandbox, 'state'),
      grant: LOCAL_TOOLS.map((tool) => tool.id),
      mode: 'ask',
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(sandbox, { recursive: true, force: true });
  });

  it('lists every local tool with the hints of its effect', async () => {
    const { tools } = await server.client.listTools();

    const listed = Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        [
          tool.annotations?.readOnlyHint,
          tool.annotations?.destructiveHint,
          tool.annotations?.idempotentHint,
          tool.annotations?.openWorldHint,
        ],
      ]),
    );
    expect(listed).toEqual(EXPECTED);
  });

  it('shows create_directory as additive: not destructive, and idempotent', async () => {
    const { tools } = await server.client.listTools();

    expect(tools.find((tool) => tool.name === 'create_directory')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});
