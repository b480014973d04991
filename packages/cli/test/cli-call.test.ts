import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost call: output and arguments', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const call = (args: readonly string[], input?: string) => callCli(ws, args, input);

  it('prints the model-facing result and exits 0', async () => {
    const run = await call(['read_file', '{"path":"notes.txt"}']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('hello from notes');
  });

  it('prints the outcome as JSON with --json', async () => {
    const run = await call(['read_file', '{"path":"notes.txt"}', '--json']);

    expect(run.code).toBe(0);
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({
      ok: true,
      exitCode: 0,
      runId: expect.any(String),
      tool: 'read_file',
      truncated: false,
      spill: null,
      events: {
        call: { toolId: 'read_file' },
        result: { toolId: 'read_file', success: true },
      },
    });
    expect(JSON.stringify(outcome.result)).toContain('hello from notes');
  });

  it('reads arguments from @file and from stdin', async () => {
    await ws.write('args.json', '{"path":"notes.txt"}');

    const fromFile = await call(['read_file', '@args.json']);
    const fromStdin = await call(['read_file', '-'], '{"path":"notes.txt"}');

    expect(fromFile.stdout).toContain('hello from notes');
    expect(fromStdin.stdout).toContain('hello from notes');
  });

  it('reports a spill and truncation when the result is over the ceiling', async () => {
    await ws.write('big.txt', 'line\n'.repeat(500));

    const run = await call(['read_file', '{"path":"big.txt"}', '--max-bytes', '1000', '--json']);

    const outcome = JSON.parse(run.stdout);
    expect(outcome.truncated).toBe(true);
    expect(outcome.spill).toMatchObject({
      ref: expect.any(String),
      byteLength: expect.any(Number),
    });
  });
});
