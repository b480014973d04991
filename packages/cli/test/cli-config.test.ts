import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approveConfig, runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost: usage and configuration', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('prints help listing every command and exits 0', async () => {
    const run = await runCli(['--help'], { cwd: ws.root });

    expect(run.code).toBe(0);
    for (const command of ['call', 'tools', 'explain', 'init', 'doctor', 'serve']) {
      expect(run.stdout).toContain(command);
    }
  });

  it('exits 2 on an unknown command', async () => {
    const run = await runCli(['frobnicate'], { cwd: ws.root });

    expect(run.code).toBe(2);
  });

  it('exits 2 with the line number on a config file that is not JSON', async () => {
    await ws.write('toolhost.config.json', '{\n  "mode": "ask",\n  "tools": [read_file]\n}\n');

    const run = await runCli(['tools', ...ws.stateFlags], { cwd: ws.root });

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/toolhost\.config\.json: invalid JSON at line 3, column \d+/);
  });

  it('exits 2 naming an unknown config key', async () => {
    await ws.write('toolhost.config.json', '{"tols": ["read_file"]}');

    const run = await runCli(['tools', ...ws.stateFlags], { cwd: ws.root });

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown key "tols"');
  });

  it('exits 2 naming a config field of the wrong type', async () => {
    await ws.write('toolhost.config.json', '{"limits": {"maxBytes": "big"}}');

    const run = await runCli(['tools', ...ws.stateFlags], { cwd: ws.root });

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('field "limits.maxBytes"');
  });

  it('reports a config error as JSON with --json', async () => {
    await ws.write('toolhost.config.json', '{"mode": "yolo"}');

    const run = await runCli(['call', 'read_file', '{}', '--json', ...ws.stateFlags], {
      cwd: ws.root,
    });

    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      exitCode: 2,
      error: { code: 'usage', message: expect.stringContaining('field "mode"') },
    });
  });

  it('init writes a starter config that validates, and refuses to overwrite it', async () => {
    const first = await runCli(['init', ...ws.stateFlags], { cwd: ws.root });
    const second = await runCli(['init', ...ws.stateFlags], { cwd: ws.root });
    const doctor = await runCli(['doctor', ...ws.stateFlags], { cwd: ws.root });

    expect(first.code).toBe(0);
    const written = JSON.parse(await readFile(join(ws.root, 'toolhost.config.json'), 'utf8'));
    expect(written).toMatchObject({ $schema: expect.any(String), mode: 'accept-edits' });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('--force');
    expect(doctor.code).toBe(0);
  });

  it('lets a flag override the config file', async () => {
    await ws.write('toolhost.config.json', '{"tools": ["read_file"]}');
    await approveConfig(ws);

    const run = await runCli(['tools', '--tools', 'list_directory', ...ws.stateFlags], {
      cwd: ws.root,
    });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('list_directory');
    expect(run.stdout).not.toContain('read_file');
  });

  it('reads --config from another place and names it as typed in errors', async () => {
    await ws.write('../elsewhere.json', '{"tools": ["list_directory"]}');
    await ws.write('../broken.json', '{"tools": 7}');

    const good = await runCli(['tools', '--config', '../elsewhere.json', ...ws.stateFlags], {
      cwd: ws.root,
    });
    const bad = await runCli(['tools', '--config', '../broken.json', ...ws.stateFlags], {
      cwd: ws.root,
    });

    expect(good.stdout.trim().split(/\s+/)[0]).toBe('list_directory');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('../broken.json: field "tools"');
  });
});
