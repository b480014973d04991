import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callCli, runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost call: audit log and non-interactive approval', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const call = (args: readonly string[], input?: string) => callCli(ws, args, input);

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
      'approval_decided',
      'tool_result',
    ]);
    // `auto` approved it without asking anyone: the policy's decision.
    expect(events[2]).toMatchObject({ toolId: 'run_command', outcome: 'approved', by: 'policy' });
    expect(new Set(events.map((event) => event.runId)).size).toBe(1);
    for (const event of events) expect(Date.parse(event.ts)).not.toBeNaN();
    expect(events[1]).not.toHaveProperty('unredactedPreview');
  });

  it('logs a write_file approval as its path, mode and size: never its content', async () => {
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
    const events = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((event) => event.event)).toEqual([
      'tool_call',
      'approval_requested',
      'approval_decided',
      'tool_result',
    ]);
    // Not even the scrubbed start: the log outlives the decision, and the scrubber is best-effort.
    // (The `tool_call` line is the caller's arguments, scrubbed, as it always was.)
    expect(events[1].preview).toEqual({ path: 'creds.txt', writeMode: 'replace', byteCount: 40 });
    expect(JSON.stringify(events[1])).not.toContain('aws_access_key_id');
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

  it('exits 2 before running anything when the audit log cannot be opened', async () => {
    const run = await call([
      'write_file',
      '{"path":"out.txt","content":"x"}',
      '--tools',
      'write_file',
      '--mode',
      'auto',
      '--audit-log',
      join(ws.root, 'missing-dir', 'audit.jsonl'),
    ]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot open the audit log (ENOENT)');
    expect(existsSync(join(ws.root, 'out.txt'))).toBe(false);
  });
});
