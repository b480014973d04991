import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approveConfig, runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

// Where bubblewrap works here; the CLI's own Linux default then holds (`required`).
const BWRAP = process.platform === 'linux' && existsSync('/usr/bin/bwrap');

describe('toolhost: the process sandbox', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const run = (args: readonly string[]) => runCli([...args, ...ws.stateFlags], { cwd: ws.root });
  const doctorJson = async (args: readonly string[]) => {
    const result = await run(['doctor', '--json', ...args]);
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as {
      containment: { sandbox: Record<string, unknown> };
      policy: { sandbox: Record<string, unknown> };
      mcpReach: unknown[];
    };
  };

  it('accepts --sandbox off and doctor says commands run on the host', async () => {
    const result = await run(['doctor', '--sandbox', 'off']);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^sandbox: +off \(--sandbox off\): .*run on the host/m);
    expect(result.stdout).toMatch(/^ {2}filesystem: +host \(sandbox off\)$/m);
  });

  it('refuses an unknown --sandbox mode with the usage exit code', async () => {
    const result = await run(['doctor', '--sandbox', 'bogus']);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--sandbox.*bogus.*required, off/);
  });

  it('refuses an unknown process.sandbox in the config, naming the field', async () => {
    await ws.write('toolhost.config.json', '{"process": {"sandbox": "maybe"}}');

    const result = await run(['doctor']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('field "process.sandbox"');
  });

  it('refuses a relative sandbox path in an MCP server entry, naming the field', async () => {
    await ws.write(
      'toolhost.config.json',
      '{"mcpServers": {"docs": {"command": "docs-server", "readOnlyPaths": ["data"]}}}',
    );

    const result = await run(['doctor']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('field "mcpServers.docs.readOnlyPaths[0]"');
  });

  it('lets --sandbox win over process.sandbox in the config', async () => {
    await ws.write('toolhost.config.json', '{"process": {"sandbox": "required"}}');
    await approveConfig(ws);

    const report = await doctorJson(['--sandbox', 'off']);

    expect(report.policy.sandbox).toMatchObject({ mode: 'off', source: 'flag' });
    expect(report.containment.sandbox).toMatchObject({ mode: 'off', capabilities: 'host' });
  });

  it('shows --sandbox-allow-domain in doctor, over the config list', async () => {
    await ws.write(
      'toolhost.config.json',
      '{"process": {"network": {"allowedDomains": ["registry.npmjs.org"]}}}',
    );
    await approveConfig(ws);

    const report = await doctorJson([
      '--sandbox',
      'required',
      '--sandbox-allow-domain',
      'example.com',
    ]);
    const text = await run([
      'doctor',
      '--sandbox',
      'required',
      '--sandbox-allow-domain',
      'example.com',
    ]);

    expect(report.containment.sandbox).toMatchObject({
      network: { allowedDomains: ['example.com'] },
    });
    expect(text.stdout).toMatch(/^ {2}network: +https to example\.com only/m);
  });

  it('lists what each MCP stdio server may reach, without starting it', async () => {
    await ws.write(
      'toolhost.config.json',
      JSON.stringify({
        mcpServers: {
          docs: {
            command: 'no-such-docs-server',
            network: { allowedDomains: ['api.example.com'] },
            readOnlyPaths: ['/opt/docs'],
          },
          local: { command: 'no-such-local-server', sandbox: 'off' },
        },
      }),
    );
    await approveConfig(ws);

    const result = await run(['doctor', '--sandbox', 'required']);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('mcp stdio servers may reach:');
    expect(result.stdout).toContain(
      '  docs: sandbox required; the workspace view + read-only /opt/docs; network https to api.example.com',
    );
    expect(result.stdout).toContain(
      '  local: sandbox off, on the host: your filesystem and network',
    );
  });

  it('says on serve startup that the sandbox is off', async () => {
    const result = await runCli(['serve', '--sandbox', 'off', ...ws.stateFlags], { cwd: ws.root });

    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^toolhost serve: process sandbox off \(--sandbox off\): /m);
  });

  it('lists on serve startup what each started MCP server may reach', async () => {
    await ws.write(
      'toolhost.config.json',
      JSON.stringify({
        tools: ['mcp_docs_search'],
        mcpServers: {
          docs: {
            command: 'no-such-docs-server',
            network: { allowedDomains: ['api.example.com'] },
            readOnlyPaths: ['/opt/docs'],
          },
        },
      }),
    );
    await approveConfig(ws);

    const result = await runCli(['serve', '--sandbox', 'required', ...ws.stateFlags], {
      cwd: ws.root,
    });

    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'toolhost serve: mcp server docs: sandbox required; the workspace view + read-only /opt/docs; network https to api.example.com',
    );
  });

  it('explains that an unsandboxed command runs on the host', async () => {
    const result = await run([
      'explain',
      'run_command',
      '{"command":"ls","args":["-la"]}',
      '--tools',
      'run_command',
      '--allow-command-glob',
      'ls *',
      '--mode',
      'auto',
      '--sandbox',
      'off',
    ]);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/sandbox +off \(--sandbox off\): .*run on the host/);
  });

  describe.skipIf(!BWRAP)('with bubblewrap on this machine', () => {
    it('says nothing about the sandbox on serve startup while it is required and works', async () => {
      const result = await runCli(['serve', '--sandbox', 'required', ...ws.stateFlags], {
        cwd: ws.root,
      });

      expect(result.code).toBe(0);
      expect(result.stderr).not.toMatch(/sandbox/);
    });

    it('doctor shows the bwrap version, seccomp and dropped capabilities', async () => {
      const result = await run(['doctor', '--tools', 'run_command']);

      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^sandbox: +required \(bubblewrap \d+\.\d+/m);
      expect(result.stdout).toMatch(/^ {2}seccomp: +on \(\d+ syscalls denied\)$/m);
      expect(result.stdout).toMatch(/^ {2}capabilities: +all dropped$/m);
      expect(result.stdout).toMatch(/^ {2}network: +none/m);
      expect(result.stdout).toMatch(
        /^containment: pid-namespace via bwrap \(budgets: .*tree budgets/m,
      );
    });

    it('explains what a sandboxed command will see, with the allowed domain', async () => {
      const result = await run([
        'explain',
        'run_command',
        '{"command":"ls","args":["-la"]}',
        '--tools',
        'run_command',
        '--allow-command-glob',
        'ls *',
        '--mode',
        'auto',
        '--sandbox-allow-domain',
        'example.com',
        '--json',
      ]);

      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as { steps: { step: string; detail: string }[] };
      const sandbox = report.steps.find((step) => step.step === 'sandbox');
      expect(sandbox?.detail).toMatch(/^bubblewrap .*filesystem: allowlist/);
      expect(sandbox?.detail).toContain('network: https to example.com only');
      expect(sandbox?.detail).toMatch(/seccomp: on \(\d+ syscalls denied\)/);
    });

    it('runs an allowed command inside the sandbox', async () => {
      const result = await run([
        'call',
        'run_command',
        '{"command":"ls"}',
        '--tools',
        'run_command',
        '--allow-command',
        'ls',
        '--mode',
        'auto',
      ]);

      expect(result.code).toBe(0);
      expect(result.stdout).toContain('notes.txt');
    });

    it('cannot read /etc/shadow from a sandboxed command', async () => {
      const hostShadow = readable('/etc/shadow');

      const result = await run([
        'call',
        'run_command',
        '{"command":"cat","args":["/etc/shadow"]}',
        '--tools',
        'run_command',
        '--allow-command-glob',
        'cat *',
        '--mode',
        'auto',
        '--json',
      ]);

      expect(result.code).toBe(0);
      const outcome = JSON.parse(result.stdout) as { result?: { stdout?: string } };
      expect(outcome.result?.stdout).toBe('');
      if (hostShadow !== '') expect(result.stdout).not.toContain(hostShadow.split('\n')[0]);
    });
  });
});

function readable(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
