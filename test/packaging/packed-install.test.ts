import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACK_ORDER } from '../../scripts/pack.mjs';

// What a user gets: every package packed as npm packs it, installed into fresh projects from the
// tarballs alone (their registry dependencies come from npm's cache where it has them).
const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TYPESCRIPT = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
// What `npm run pack` packs, in its order: the test follows the script, never a copy of its list.
const PACKAGES = PACK_ORDER;
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

interface Packed {
  readonly name: string;
  readonly tarball: string;
  readonly entries: readonly string[];
  readonly manifest: Record<string, unknown>;
}

describe('the packed packages, installed into fresh projects', { timeout: 600_000 }, () => {
  let work = '';
  const packed = new Map<string, Packed>();
  // The @toolhost scope's registry for every install: a loopback server that answers nothing and
  // counts what it is asked, so a tarball set that leaves npm looking for an @toolhost/* name
  // fails the test instead of asking the public registry for an unpublished package.
  const scopeAsked: string[] = [];
  let scopeRegistry: Server | undefined;
  let scopeRegistryUrl = '';

  beforeAll(async () => {
    scopeRegistry = createServer((request, response) => {
      scopeAsked.push(decodeURIComponent(request.url ?? ''));
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    await new Promise<void>((listening) => scopeRegistry?.listen(0, '127.0.0.1', listening));
    scopeRegistryUrl = `http://127.0.0.1:${(scopeRegistry.address() as AddressInfo).port}/`;
    work = await mkdtemp(path.join(tmpdir(), 'toolhost-pack-'));
    // Exactly the command the docs print: it checks the build, makes the destination and packs
    // a copy of each package, leaving the tree's manifests alone.
    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'pack', '--', path.join(work, 'packs')],
      {
        cwd: REPO,
      },
    );
    const tarballs = stdout.trim().split('\n');
    for (const name of PACKAGES) {
      const tarball = tarballs.find((line) => path.basename(line) === `toolhost-${name}-0.1.0.tgz`);
      if (tarball === undefined) throw new Error(`npm run pack made no tarball for ${name}`);
      packed.set(name, await inspect(name, tarball));
    }
  }, 300_000);
  afterAll(async () => {
    scopeRegistry?.close();
    if (work !== '') await rm(work, { recursive: true, force: true });
  });

  // A fresh project exactly as the docs make one, its @toolhost scope on the loopback registry.
  async function freshProject(name: string): Promise<string> {
    const project = path.join(work, name);
    await mkdir(project, { recursive: true });
    await run('npm', ['init', '-y'], { cwd: project });
    await run('npm', ['pkg', 'set', 'type=module'], { cwd: project });
    await writeFile(path.join(project, '.npmrc'), `@toolhost:registry=${scopeRegistryUrl}\n`);
    return project;
  }

  // Installs, then checks npm never looked for an @toolhost/* name outside the tarballs.
  async function npmInstall(project: string, specs: readonly string[]): Promise<void> {
    scopeAsked.length = 0;
    await run('npm', ['install', ...NPM_QUIET, ...specs], { cwd: project, maxBuffer: 16 << 20 });
    expect(scopeAsked, `${path.basename(project)} asked the registry`).toEqual([]);
  }

  it('refuses a direct npm pack in a package, leaving its manifest as it was', async () => {
    const manifestPath = path.join(REPO, 'packages', 'core', 'package.json');
    const before = await readFile(manifestPath, 'utf8');

    const attempt = run('npm', ['pack', '--pack-destination', path.join(work, 'direct')], {
      cwd: path.join(REPO, 'packages', 'core'),
    });

    await expect(attempt).rejects.toMatchObject({
      stderr: expect.stringContaining('npm run pack'),
    });
    expect(await readFile(manifestPath, 'utf8')).toBe(before);
    expect(existsSync(path.join(work, 'direct'))).toBe(false);
  });

  it.each(PACKAGES)('%s: a README, no maps or build info, exports only what ships', (name) => {
    const { entries, manifest } = packed.get(name) as Packed;

    expect(entries).toContain('package/README.md');
    expect(entries.filter((entry) => /\.map$|\.tsbuildinfo$/.test(entry))).toEqual([]);
    expect(JSON.stringify(manifest['exports'])).not.toContain('"source"');
    expect(manifest['scripts'] ?? {}).not.toHaveProperty('prepack');
    for (const target of manifestTargets(manifest)) {
      expect(entries, `${name} names ${target}`).toContain(
        `package/${target.replace(/^\.\//, '')}`,
      );
    }
  });

  it('@toolhost/node alone: no MCP SDK or express installed, the host works, MCP says what is missing', async () => {
    const project = await freshProject('node-only');
    // The node tarball alone: its @toolhost/* dependencies come from the tarballs beside it.
    await npmInstall(project, [tarballOf('node'), '@types/node@^20.19.0']);
    expect(await readdir(path.join(project, 'node_modules', '@toolhost'))).toEqual(NODE_SET);
    await writeFile(
      path.join(project, 'check.mjs'),
      `import { readFileSync } from 'node:fs';
import { BUILTIN_TOOLS, createToolRegistry, unwrapUntrusted } from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';
const stateDir = new URL('./state', import.meta.url).pathname;
const { host, close } = await createNodeToolHost({ root: process.cwd(), stateDir });
const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
const outcome = await registry.dispatch(
  { id: '1', name: 'read_file', args: { path: 'package.json' } },
  { nodeId: 'n', grantedToolIds: new Set(['read_file']), config: {}, toolPolicy: {}, fsScope: 'sandboxed', gateApproved: false },
);
const { content } = unwrapUntrusted(outcome.toolResult).result;
console.log(content === readFileSync('package.json', 'utf8') ? 'read ok' : 'read wrong');
await close();
try {
  await createNodeToolHost({ root: process.cwd(), stateDir, mcp: { servers: { x: { transport: 'stdio', command: 'true' } } } });
  console.log('mcp loaded');
} catch (error) {
  console.log(error.code);
}
`,
    );

    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: project });

    expect(existsSync(path.join(project, 'node_modules', '@modelcontextprotocol'))).toBe(false);
    expect(existsSync(path.join(project, 'node_modules', 'express'))).toBe(false);
    expect(stdout.trim().split('\n')).toEqual(['read ok', 'mcp_sdk_missing']);
    // Without the MCP SDK or better-sqlite3's types, every entry point of core and node still
    // typechecks with skipLibCheck off: no public .d.ts names an optional dependency's types.
    expect(await typecheckEveryEntry(project, ['core', 'node'])).toBe('');
  });

  it('@toolhost/cli without @toolhost/otel: the binary runs and traces, the library build names the missing peer', async () => {
    const project = await freshProject('cli-without-otel');
    await npmInstall(project, [tarballOf('cli')]);
    expect(await readdir(path.join(project, 'node_modules', '@toolhost'))).toEqual([
      'cli',
      ...NODE_SET,
    ]);
    await writeFile(path.join(project, 'notes.txt'), 'cli without otel\n');
    const call = ['call', 'read_file', '{"path":"notes.txt"}', '--state-dir', 'state'];
    // An endpoint nothing listens on: the export fails (said on stderr), the call does not.
    const otlp = { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' };

    const bin = await run(path.join(project, 'node_modules', '.bin', 'toolhost'), call, {
      cwd: project,
      env: otlp,
    });
    const library = await run(
      process.execPath,
      [path.join(project, 'node_modules', '@toolhost', 'cli', 'dist', 'bin.js'), ...call],
      { cwd: project, env: otlp },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => error,
    );

    expect(existsSync(path.join(project, 'node_modules', '@toolhost', 'otel'))).toBe(false);
    expect(bin.stdout).toContain('cli without otel');
    expect(library).toMatchObject({ code: 2, stderr: expect.stringContaining('@toolhost/otel') });
  });

  it('the adapters and otel: each tarball brings core alone, never asking for another @toolhost name', async () => {
    const project = await freshProject('adapters');
    const adapters = ['ai-sdk', 'anthropic', 'openai-agents', 'otel', 'restate'];
    await npmInstall(project, adapters.map(tarballOf));
    expect(await readdir(path.join(project, 'node_modules', '@toolhost'))).toEqual([
      ...adapters.slice(0, 2),
      'core',
      ...adapters.slice(2),
    ]);
    await writeFile(
      path.join(project, 'check.mjs'),
      adapters.map((name) => `await import('@toolhost/${name}');`).join('\n') +
        "\nconsole.log('imported');\n",
    );

    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: project });

    expect(existsSync(path.join(project, 'node_modules', '@toolhost', 'node'))).toBe(false);
    expect(stdout.trim()).toBe('imported');
  });

  it('every package together: a strict consumer type-checks and toolhost doctor runs', async () => {
    const project = await freshProject('everything');
    await npmInstall(project, [...PACKAGES.map(tarballOf), '@types/node@^20.19.0']);
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          verbatimModuleSyntax: true,
          // Third-party declarations (ai's) are not written for exactOptionalPropertyTypes; the
          // consumer's own code is checked in full, and its @ts-expect-error lines prove the
          // packages' types resolved (an any would leave them unused, which is an error).
          skipLibCheck: true,
          noEmit: true,
          types: ['node'],
        },
        include: ['consumer.ts'],
      }),
    );
    await writeFile(path.join(project, 'consumer.ts'), CONSUMER);

    const typecheck = await run(process.execPath, [TYPESCRIPT, '-p', '.'], { cwd: project }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    const doctor = await run(
      path.join(project, 'node_modules', '.bin', 'toolhost'),
      ['doctor', '--state-dir', path.join(project, 'state')],
      { cwd: project },
    );

    expect(typecheck).toBe('');
    // Third-party declarations aside, every entry point's own .d.ts holds with skipLibCheck off.
    const ours = (await typecheckEveryEntry(project, PACKAGES))
      .split('\n')
      .filter((line) => line.startsWith('node_modules/@toolhost/'));
    expect(ours).toEqual([]);
    expect(doctor.stdout).toContain('toolhost doctor');
    expect(doctor.stdout).toMatch(/native: {5}[✓✗] pid-namespace/);
  });

  function tarballOf(name: string): string {
    return (packed.get(name) as Packed).tarball;
  }
});

// What the node tarball brings: core and its three native helpers (optional dependencies).
const NODE_SET = ['core', 'fs-at', 'node', 'pid-namespace', 'sandbox-net'];

// Imports every entry point (each `exports` key but package.json and JSON files) of `names` in a
// consumer with skipLibCheck off; returns tsc's report ('' when clean).
async function typecheckEveryEntry(project: string, names: readonly string[]): Promise<string> {
  const imports: string[] = [];
  for (const name of names) {
    const manifest = JSON.parse(
      await readFile(path.join(project, 'node_modules', '@toolhost', name, 'package.json'), 'utf8'),
    ) as { exports?: Record<string, unknown> };
    for (const key of Object.keys(manifest.exports ?? {})) {
      if (key.endsWith('.json')) continue;
      const specifier = `@toolhost/${name}${key.slice(1)}`;
      imports.push(`export * as e${imports.length} from '${specifier}';`);
    }
  }
  await writeFile(path.join(project, 'entries.ts'), `${imports.join('\n')}\n`);
  await writeFile(
    path.join(project, 'tsconfig.entries.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      files: ['entries.ts'],
    }),
  );
  return run(process.execPath, [TYPESCRIPT, '-p', 'tsconfig.entries.json'], { cwd: project }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}

async function inspect(name: string, tarball: string): Promise<Packed> {
  const listing = await run('tar', ['-tzf', tarball]);
  const manifest = JSON.parse(
    (await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout,
  ) as Record<string, unknown>;
  return { name, tarball, entries: listing.stdout.trim().split('\n'), manifest };
}

// Every file a manifest points a consumer at: main, types, bin and every exports target.
function manifestTargets(manifest: Record<string, unknown>): string[] {
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(manifest['main']);
  collect(manifest['types']);
  collect(manifest['bin']);
  collect(manifest['exports']);
  return [...new Set(targets)];
}

// A consumer as a new user writes one, under the strictest settings this repository uses.
const CONSUMER = `import { BUILTIN_TOOLS, createToolRegistry, toProviderTools, type ToolDispatchContext } from '@toolhost/core';
import { createNodeToolHost, describeNativeHelpers } from '@toolhost/node';
import { createMemoryEffectJournal } from '@toolhost/core/journal';
import { toOpenAiStrictSchema } from '@toolhost/core/lowering';
import { createSqliteEffectJournal } from '@toolhost/node/journal';
import { startMcpServer } from '@toolhost/cli/mcp-server';
import { toolhostTools } from '@toolhost/ai-sdk';
import { toolhostAgentTools } from '@toolhost/openai-agents';
import { createAnthropicToolhost } from '@toolhost/anthropic';
import { createToolRunObject, resolveApproval } from '@toolhost/restate';

const { host, close } = await createNodeToolHost({ root: process.cwd() });
const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
const ctx: ToolDispatchContext = {
  nodeId: 'consumer',
  grantedToolIds: new Set(['read_file']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
};
const lowered = toProviderTools(BUILTIN_TOOLS, 'anthropic');
const helpers: 'built' | 'not_built' | 'not_installed' | 'unsupported_platform' = (await describeNativeHelpers()).pidNamespace;
// Each line misuses one package's API: it must be a type error, so the types are really there.
// @ts-expect-error grantedToolIds is a set of ids
const badContext: ToolDispatchContext = { ...ctx, grantedToolIds: 'read_file' };
// @ts-expect-error root is required
await createNodeToolHost({});
// Subpath entries resolve from the tarballs, with their types.
const memoryJournal = createMemoryEffectJournal();
const strict = toOpenAiStrictSchema({ type: 'object', properties: {} });
// @ts-expect-error the SQLite journal needs its file
await createSqliteEffectJournal({});
// @ts-expect-error the transport is stdio or http
await startMcpServer({ transport: { kind: 'carrier-pigeon' } });
const options = { grantedToolIds: ['read_file'], toolPolicy: {} };
const adapters = [
  toolhostTools(registry, options),
  toolhostAgentTools(registry, options),
  createAnthropicToolhost(registry, options),
];
// @ts-expect-error the grant is required: registering a tool never widens it
toolhostTools(registry, { toolPolicy: {} });
// @ts-expect-error the grant is required
toolhostAgentTools(registry, { toolPolicy: {} });
// @ts-expect-error the grant is required
createAnthropicToolhost(registry, { toolPolicy: {} });
const runs = createToolRunObject({
  registry,
  journal: { lookup: async () => ({ kind: 'absent' }), prepare: async () => ({ claimId: 'c' }), settle: async () => {}, discard: async () => {} },
  context: () => ctx,
  model: async () => ({ text: 'done' }),
});
// @ts-expect-error a run needs its model
createToolRunObject({ registry, journal: runs as never, context: () => ctx });
// @ts-expect-error a decision is approve or reject
await resolveApproval({ resolveAwakeable: () => undefined }, 'id', { outcome: 'maybe' });
export const used = [registry, ctx, badContext, lowered, helpers, adapters, close, runs, memoryJournal, strict];
`;
