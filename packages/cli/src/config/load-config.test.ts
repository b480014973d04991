import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configApprovalKey, hashConfigBytes, recordConfigApproval } from './config-approval.js';
import { ConfigNotApprovedError } from './config-not-approved-error.js';
import { loadConfig, parseConfig } from './load-config.js';
import { locateJsonError } from './parse-json-with-position.js';

describe('parseConfig', () => {
  it('accepts a full config', () => {
    const text = JSON.stringify({
      $schema: './schema.json',
      $comment: ['starter config'],
      tools: ['read_file', 'run_command'],
      fsScope: 'project',
      extraRoots: ['../shared'],
      allowedCommands: ['git status'],
      allowedCommandGlobs: ['git log *'],
      allowedDomains: ['example.com'],
      mode: 'accept-edits',
      limits: {
        maxBytes: 1000,
        maxLines: 10,
        openFiles: 256,
        fileSizeBytes: 1_000_000,
        treeMemoryBytes: 1_000_000_000,
        pids: 64,
      },
      toolConfig: { run_command: { timeoutMs: 5000 } },
      mcpServers: {
        docs: {
          command: 'docs-server',
          args: ['--stdio'],
          sandbox: 'required',
          network: { allowedDomains: ['api.example.com'], maxConnectionsPerSandbox: 64 },
          readOnlyPaths: ['/opt/docs'],
          readWritePaths: ['/var/cache/docs'],
        },
      },
      credentials: { brave: { env: 'BRAVE_API_KEY' } },
      process: {
        sandbox: 'off',
        network: {
          allowedDomains: ['registry.npmjs.org'],
          maxConnectionsPerSandbox: 512,
          maxConnections: 2048,
        },
        readOnlyPaths: ['/opt/toolchain'],
        readWritePaths: ['/var/cache/build'],
      },
    });

    const config = parseConfig(text);

    expect(config.mode).toBe('accept-edits');
  });

  it.each([
    ['an unknown top-level key', '{"tols": []}', 'unknown key "tols"'],
    ['an unknown nested key', '{"limits": {"maxByte": 1}}', 'unknown key "limits.maxByte"'],
    ['a wrong type', '{"tools": "read_file"}', 'field "tools"'],
    ['a bad mode', '{"mode": "yolo"}', 'field "mode"'],
    ['a bad array item', '{"allowedDomains": ["ok.com", 7]}', 'field "allowedDomains[1]"'],
    [
      'an unknown key inside a union',
      '{"mcpServers": {"a": {"command": "x", "tpyo": 1}}}',
      'unknown key "mcpServers.a.tpyo"',
    ],
    ['a bad sandbox mode', '{"process": {"sandbox": "maybe"}}', 'field "process.sandbox"'],
    [
      'a relative sandbox path',
      '{"process": {"readOnlyPaths": ["opt/x"]}}',
      'field "process.readOnlyPaths[0]"',
    ],
    [
      'the root as a sandbox path',
      '{"process": {"readWritePaths": ["/"]}}',
      'field "process.readWritePaths[0]"',
    ],
    [
      'a .. segment in a sandbox path',
      '{"process": {"readWritePaths": ["/srv/../etc"]}}',
      'field "process.readWritePaths[0]"',
    ],
    [
      'a network without its domain list',
      '{"process": {"network": {}}}',
      'field "process.network.allowedDomains"',
    ],
    [
      'a zero connection cap',
      '{"process": {"network": {"allowedDomains": ["a.example"], "maxConnections": 0}}}',
      'field "process.network.maxConnections"',
    ],
    [
      'a fractional connection cap',
      '{"process": {"network": {"allowedDomains": ["a.example"], "maxConnectionsPerSandbox": 1.5}}}',
      'field "process.network.maxConnectionsPerSandbox"',
    ],
    [
      "a server's own host-wide connection cap",
      '{"mcpServers": {"a": {"command": "x", "network": {"allowedDomains": ["a.example"], "maxConnections": 9}}}}',
      'unknown key "mcpServers.a.network.maxConnections"',
    ],
    [
      'an unknown process key',
      '{"process": {"bwrapPath": "/x"}}',
      'unknown key "process.bwrapPath"',
    ],
    [
      'a bad server sandbox mode',
      '{"mcpServers": {"a": {"command": "x", "sandbox": "on"}}}',
      'field "mcpServers.a.sandbox"',
    ],
    [
      'a sandbox key on an http server',
      '{"mcpServers": {"a": {"url": "https://x.example/mcp", "sandbox": "off"}}}',
      'unknown key "mcpServers.a.sandbox"',
    ],
  ])('names the field for %s', (_case, text, expected) => {
    const attempt = () => parseConfig(text);

    expect(attempt).toThrow(expected);
  });

  it('reports the line and column of bad JSON', () => {
    const text = '{\n  "tools": ["read_file"],\n  "mode": "ask",,\n}\n';

    const attempt = () => parseConfig(text);

    expect(attempt).toThrow(/line 3, column \d+/);
  });

  it('never echoes the offending source text', () => {
    const text = '{"credentials": sk-live-SECRETVALUE}';

    const attempt = () => parseConfig(text);

    expect(attempt).toThrow(/invalid JSON/);
    expect(attempt).not.toThrow(/SECRETVALUE/);
  });
});

describe('loadConfig', () => {
  let dir = '';
  let root = '';
  let stateDir = '';
  const configFile = () => join(root, 'toolhost.config.json');
  const approveCurrent = async () => {
    const bytes = await readFile(configFile());
    recordConfigApproval({
      stateDir,
      key: configApprovalKey(configFile()),
      sha256: hashConfigBytes(bytes),
    });
  };
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-config-')));
    root = join(dir, 'app');
    stateDir = join(dir, 'state');
    await mkdir(root);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('uses defaults when the root has no config file', () => {
    const loaded = loadConfig({ root, stateDir });

    expect(loaded).toEqual({ config: {} });
  });

  it('loads the root config file once its content is approved', async () => {
    await writeFile(configFile(), '{"mode":"auto"}');
    await approveCurrent();

    const loaded = loadConfig({ root, stateDir });

    expect(loaded.config.mode).toBe('auto');
    expect(loaded.file).toBe(configFile());
  });

  it('refuses a root config file that was never approved, naming the fix', async () => {
    await writeFile(configFile(), '{"mode":"auto"}');

    const attempt = () => loadConfig({ root, stateDir });

    expect(attempt).toThrow(ConfigNotApprovedError);
    expect(attempt).toThrow(/is not approved.*toolhost config approve.*--config/);
  });

  it('refuses a root config file changed by a single byte after approval', async () => {
    await writeFile(configFile(), '{"mode":"ask"}');
    await approveCurrent();
    await writeFile(configFile(), '{"mode":"ask"} ');

    const attempt = () => loadConfig({ root, stateDir });

    expect(attempt).toThrow(/changed since it was approved/);
  });

  it('refuses an approved config read through another state dir', async () => {
    await writeFile(configFile(), '{"mode":"ask"}');
    await approveCurrent();

    const attempt = () => loadConfig({ root, stateDir: join(dir, 'other-state') });

    expect(attempt).toThrow(ConfigNotApprovedError);
  });

  it('refuses the approved bytes when they are planted in another root', async () => {
    await writeFile(configFile(), '{"mode":"ask"}');
    await approveCurrent();
    await mkdir(join(dir, 'other'));
    await writeFile(join(dir, 'other', 'toolhost.config.json'), '{"mode":"ask"}');

    const attempt = () => loadConfig({ root: join(dir, 'other'), stateDir });

    expect(attempt).toThrow(ConfigNotApprovedError);
  });

  it('refuses a config swapped for a symlink to a config approved elsewhere', async () => {
    await mkdir(join(dir, 'other'));
    await writeFile(join(dir, 'other', 'toolhost.config.json'), '{"mode":"auto"}');
    recordConfigApproval({
      stateDir,
      key: configApprovalKey(join(dir, 'other', 'toolhost.config.json')),
      sha256: hashConfigBytes(Buffer.from('{"mode":"auto"}')),
    });
    await symlink(join(dir, 'other', 'toolhost.config.json'), configFile());

    const attempt = () => loadConfig({ root, stateDir });

    expect(attempt).toThrow(ConfigNotApprovedError);
  });

  it('shares one approval between two spellings of the same root', async () => {
    await writeFile(configFile(), '{"mode":"ask"}');
    await approveCurrent();
    await symlink(root, join(dir, 'alias'));

    const loaded = loadConfig({ root: join(dir, 'alias'), stateDir });

    expect(loaded.config.mode).toBe('ask');
  });

  it('reports a broken root config as broken before asking for approval', async () => {
    await writeFile(configFile(), '{"tols": []}');

    const attempt = () => loadConfig({ root, stateDir });

    expect(attempt).toThrow(/unknown key "tols"/);
  });

  it('refuses a root config that is a FIFO without waiting on it', async () => {
    execFileSync('mkfifo', [configFile()]);

    const attempt = () => loadConfig({ root, stateDir });

    expect(attempt).toThrow(/cannot read the config file \(not a regular file\)/);
  });

  it('loads an explicit config file without any approval record', async () => {
    await writeFile(join(dir, 'given.json'), '{"mode":"plan"}');

    const loaded = loadConfig({ root, stateDir, explicitPath: join(dir, 'given.json') });

    expect(loaded.config.mode).toBe('plan');
  });

  it('refuses an explicit config file that does not exist', () => {
    const attempt = () => loadConfig({ root, stateDir, explicitPath: 'missing.json' });

    expect(attempt).toThrow(/cannot read the config file \(ENOENT\)/);
  });

  it('never puts a path in a refusal message', async () => {
    await writeFile(configFile(), '{"mode":"ask"}');

    const error = (() => {
      try {
        loadConfig({ root, stateDir });
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();

    expect(error?.message).not.toContain(dir);
  });
});

describe('locateJsonError', () => {
  it.each([
    ['an unquoted word', '{\n  "mode": "ask",\n  "tools": [read_file]\n}', 3, 13],
    ['a trailing comma', '{\n  "a": 1,\n}', 3, 1],
    ['a missing comma', '{\n  "a": 1\n  "b": 2\n}', 3, 3],
    ['an unterminated string', '{"a": "x', 1, 9],
    ['a bad escape', '{"a": "\\q"}', 1, 9],
    ['a leading zero', '[01]', 1, 3],
    ['trailing text', '{} x', 1, 4],
    ['empty input', '', 1, 1],
  ])('finds %s', (_case, text, line, column) => {
    expect(locateJsonError(text)).toEqual({ line, column });
  });
});
