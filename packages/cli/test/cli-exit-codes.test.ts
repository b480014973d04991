import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost call: exit codes', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const call = (args: readonly string[], input?: string) => callCli(ws, args, input);

  it.each([
    ['bad JSON arguments', ['read_file', '{"path":'], 2],
    ['a tool outside the grant', ['write_file', '{"path":"x.txt","content":"x"}'], 3],
    [
      'a command outside the allowlist',
      ['run_command', '{"command":"ls"}', '--tools', 'run_command'],
      3,
    ],
    ['invalid arguments', ['read_file', '{"path":7}'], 4],
    ['an unknown tool', ['no_such_tool', '{}'], 4],
    ['an arm this host lacks', ['invoke_agent', '{"nodeId":"n"}', '--tools', 'invoke_agent'], 5],
    ['a failing host call', ['read_file', '{"path":"missing.txt"}'], 1],
  ])('exits with the documented code for %s', async (_case, args, expected) => {
    const run = await call(args);

    expect(run.code).toBe(expected);
    expect(run.stderr).toMatch(/^toolhost: /m);
  });

  it('puts the failure on stdout as JSON with --json', async () => {
    const run = await call(['read_file', '{"path":7}', '--json']);

    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      exitCode: 4,
      error: { code: 'tool_args_invalid', fields: ['path'] },
    });
  });
});
