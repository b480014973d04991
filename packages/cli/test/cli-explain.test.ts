import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost explain', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const run = (args: readonly string[]) => runCli([...args, ...ws.stateFlags], { cwd: ws.root });

  it('explains an allowlist refusal and exits 3', async () => {
    const result = await run([
      'explain',
      'run_command',
      '{"command":"rm","args":["-rf","x"]}',
      '--tools',
      'run_command',
    ]);

    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/allowlist .*matches no exact entry and no glob/);
    expect(result.stdout).toContain('verdict: refused at allowlist');
  });

  it('names the argument trap behind a glob refusal', async () => {
    const result = await run([
      'explain',
      'run_command',
      '{"command":"git","args":["log","--output=/tmp/x"]}',
      '--tools',
      'run_command',
      '--allow-command-glob',
      'git log *',
      '--json',
    ]);

    expect(result.code).toBe(3);
    const report = JSON.parse(result.stdout);
    expect(report.allowed).toBe(false);
    expect(report.steps).toContainEqual(
      expect.objectContaining({
        step: 'allowlist',
        status: 'fail',
        detail: expect.stringMatching(/argument-trap/),
      }),
    );
  });

  it('explains an allowed command with the approval the mode would need', async () => {
    const result = await run([
      'explain',
      'run_command',
      '{"command":"npm","args":["test"]}',
      '--tools',
      'run_command',
      '--allow-command',
      'npm test',
      '--mode',
      'accept-edits',
    ]);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/allowlist .*exact allowedCommands entry/);
    expect(result.stdout).toMatch(/approval .*asks a human/);
  });

  it('has no side effect: explaining an allowed write writes nothing', async () => {
    const result = await run([
      'explain',
      'write_file',
      '{"path":"new.txt","content":"x"}',
      '--tools',
      'write_file',
      '--mode',
      'auto',
    ]);

    expect(result.code).toBe(0);
    expect(existsSync(join(ws.root, 'new.txt'))).toBe(false);
  });

  it('explains a floor refusal of the config file', async () => {
    const result = await run([
      'explain',
      'write_file',
      '{"path":"toolhost.config.json","content":"{}"}',
      '--tools',
      'write_file',
      '--mode',
      'auto',
    ]);

    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/fs .*write floor/);
  });

  it('explains a grant refusal and an args refusal', async () => {
    const grant = await run(['explain', 'write_file', '{"path":"a","content":""}']);
    const args = await run(['explain', 'read_file', '{"path":7}']);

    expect(grant.code).toBe(3);
    expect(grant.stdout).toMatch(/grant .*not_granted/);
    expect(args.code).toBe(4);
    expect(args.stdout).toMatch(/args .*path/);
  });

  it('explains the domain step: allowed host, other host, plain http', async () => {
    const flags = ['--tools', 'http_request', '--allow-domain', 'example.com', '--mode', 'auto'];

    const allowed = await run([
      'explain',
      'http_request',
      '{"url":"https://example.com/a?q=1"}',
      ...flags,
    ]);
    const other = await run(['explain', 'http_request', '{"url":"https://evil.test/"}', ...flags]);
    const plain = await run(['explain', 'http_request', '{"url":"http://example.com/"}', ...flags]);

    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/domain .*example\.com is in allowedDomains/);
    expect(allowed.stdout).not.toContain('q=1');
    expect(other.code).toBe(3);
    expect(other.stdout).toMatch(/domain .*domain_not_allowed/);
    expect(plain.code).toBe(3);
    expect(plain.stdout).toMatch(/domain .*insecure_url/);
  });
});
