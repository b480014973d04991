import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost call', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const call = (args: readonly string[], input?: string) =>
    runCli(['call', ...args, ...ws.stateFlags], {
      cwd: ws.root,
      ...(input === undefined ? {} : { input }),
    });

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

  it('writes a secret-free audit log: call, approval request and result, one line each', async () => {
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const command = `echo token=${secret}`;
    const log = join(ws.root, '..', 'audit.jsonl');

    const run = await call([
      'run_command',
      JSON.stringify({ command: 'echo', args: [`token=${secret}`] }),
      '--tools',
      'run_command',
      '--allow-command',
      command,
      '--mode',
      'auto',
      '--audit-log',
      log,
    ]);

    expect(run.code).toBe(0);
    const text = await readFile(log, 'utf8');
    expect(text).not.toContain(secret);
    const events = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((event) => event.event)).toEqual([
      'tool_call',
      'approval_requested',
      'tool_result',
    ]);
    expect(new Set(events.map((event) => event.runId)).size).toBe(1);
    for (const event of events) expect(Date.parse(event.ts)).not.toBeNaN();
    expect(events[1]).not.toHaveProperty('unredactedPreview');
  });

  it('keeps a secret in write_file content out of the audit log', async () => {
    const secret = 'AKIAIOSFODNN7EXAMPLE';
    const log = join(ws.root, '..', 'audit-write.jsonl');

    const run = await call([
      'write_file',
      JSON.stringify({ path: 'creds.txt', content: `aws_access_key_id = ${secret}` }),
      '--tools',
      'write_file',
      '--mode',
      'auto',
      '--audit-log',
      log,
    ]);

    expect(run.code).toBe(0);
    const text = await readFile(log, 'utf8');
    expect(text).not.toContain(secret);
    expect(
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).event),
    ).toEqual(['tool_call', 'approval_requested', 'tool_result']);
  });

  it('never writes a file refused for lack of a terminal', async () => {
    const run = await call([
      'write_file',
      '{"path":"out.txt","content":"x"}',
      '--tools',
      'write_file',
      '--mode',
      'accept-edits',
    ]);

    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/no terminal to ask.*--mode auto/s);
    expect(existsSync(join(ws.root, 'out.txt'))).toBe(false);
  });

  it.each([
    ['--json', ['--json'], {}],
    ['CI', [], { CI: 'true' }],
  ])('refuses approval non-interactively under %s', async (_case, flags, env) => {
    const run = await runCli(
      [
        'call',
        'write_file',
        '{"path":"out.txt","content":"x"}',
        '--tools',
        'write_file',
        '--mode',
        'accept-edits',
        ...flags,
        ...ws.stateFlags,
      ],
      { cwd: ws.root, env },
    );

    expect(run.code).toBe(3);
    expect(existsSync(join(ws.root, 'out.txt'))).toBe(false);
  });

  it('writes in auto mode and refuses the config file even then', async () => {
    const ordinary = await call([
      'write_file',
      '{"path":"out.txt","content":"x"}',
      '--tools',
      'write_file',
      '--mode',
      'auto',
    ]);
    const config = await call([
      'write_file',
      '{"path":"toolhost.config.json","content":"{}"}',
      '--tools',
      'write_file',
      '--mode',
      'auto',
    ]);

    expect(ordinary.code).toBe(0);
    expect(await readFile(join(ws.root, 'out.txt'), 'utf8')).toBe('x');
    expect(config.code).toBe(3);
    expect(existsSync(join(ws.root, 'toolhost.config.json'))).toBe(false);
  });
});
