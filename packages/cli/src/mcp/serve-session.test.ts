import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';
import { connectServe } from './test-support/serve-client.js';
import { startServeHttp, type ServeHttpProcess } from './test-support/serve-http-process.js';

const FIVE_MB = 5 * 1024 * 1024;
// A 1x1 PNG: what `read_file` stores in the media store rather than returning as text.
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

// End to end: SDK clients over Streamable HTTP against a real `toolhost serve --http` process.
describe('toolhost serve --http runs each session in its own run', () => {
  let sandbox = '';
  let root = '';
  let stateDir = '';
  let serve: ServeHttpProcess | undefined;
  const start = async (idleSeconds = '600') => {
    serve = await startServeHttp([
      '--root',
      root,
      '--state-dir',
      stateDir,
      '--tools',
      'read_file,read_media',
      '--session-idle-timeout',
      idleSeconds,
    ]);
    return serve.url;
  };
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-serve-runs-')));
    root = path.join(sandbox, 'app');
    stateDir = path.join(sandbox, 'state');
    await mkdir(root);
    await writeFile(path.join(root, 'big.txt'), 'only session A may page this\n'.repeat(20_000));
    // Lines of 1 KiB, so the bounded view stays small while the spill is the whole 5 MiB.
    await writeFile(path.join(root, 'pixel.png'), PIXEL_PNG);
    await writeFile(path.join(root, 'five.txt'), `${'x'.repeat(1023)}\n`.repeat(FIVE_MB / 1024));
  });
  afterEach(async () => {
    await serve?.stop();
    serve = undefined;
    await rm(stateDir, { recursive: true, force: true });
  });
  afterAll(() => rm(sandbox, { recursive: true, force: true }));

  it("refuses session B a page of session A's spill, which A itself can read", async () => {
    const url = await start();
    const a = await connect(url);
    const b = await connect(url);
    const ref = await spillOf(a.client, 'big.txt');

    const own = await readText(a.client, { path: ref, limit: 10 });
    const other = await readText(b.client, { path: ref, limit: 10 });

    expect(own.refused).toBe(false);
    expect(own.text).toContain('only session A may page this');
    expect(other.refused).toBe(true);
    expect(other.text).not.toContain('only session A may page this');
    await a.client.close();
    await b.client.close();
  });

  it('refuses session B the media session A stored, which A itself can read', async () => {
    const url = await start();
    const a = await connect(url);
    const b = await connect(url);
    const handle = `media://sha256-${createHash('sha256').update(PIXEL_PNG).digest('hex')}`;
    await a.client.callTool({ name: 'read_file', arguments: { path: 'pixel.png' } });

    const own = await readMedia(a.client, handle);
    const other = await readMedia(b.client, handle);

    expect(own).toMatchObject({ refused: false });
    expect(own.text).toContain('image/png');
    expect(other).toMatchObject({ refused: true });
    expect(other.text).toContain('media_scope_denied');
    await a.client.close();
    await b.client.close();
  });

  it('removes the spill directory of a session its client DELETEs', async () => {
    const url = await start();
    const a = await connect(url);
    const ref = await spillOf(a.client, 'big.txt');
    const spilledFirst = existsSync(ref);

    await a.transport.terminateSession();
    await a.client.close();

    expect(spilledFirst).toBe(true);
    expect(existsSync(path.dirname(ref))).toBe(false);
  });

  it('removes the spill directory of a session that expired idle', async () => {
    const url = await start('0.3');
    const a = await connect(url);
    const ref = await spillOf(a.client, 'big.txt');
    await a.client.close();

    await waitFor(() => !existsSync(path.dirname(ref)));

    expect(existsSync(path.dirname(ref))).toBe(false);
  });

  it('removes every session spill when the server stops', async () => {
    const url = await start();
    const a = await connect(url);
    const ref = await spillOf(a.client, 'big.txt');

    const code = await serve?.stop();
    serve = undefined;

    expect(code).toBe(0);
    expect(existsSync(path.dirname(ref))).toBe(false);
    expect(await bytesUnder(path.join(stateDir, 'spill'))).toBe(0);
  });

  it('keeps the spill root bounded over 21 reads of a 5 MB file by sessions that end', async () => {
    const url = await start('0.3');
    let peak = 0;

    for (let index = 0; index < 21; index += 1) {
      const session = await connect(url);
      await spillOf(session.client, 'five.txt');
      peak = Math.max(peak, await bytesUnder(path.join(stateDir, 'spill')));
      // Half end by DELETE, half the way SDK clients and the Inspector do: by going quiet.
      if (index % 2 === 0) await session.transport.terminateSession();
      await session.client.close();
    }
    await waitFor(async () => (await bytesUnder(path.join(stateDir, 'spill'))) === 0);
    const left = await bytesUnder(path.join(stateDir, 'spill'));

    expect(peak).toBeGreaterThanOrEqual(FIVE_MB);
    expect(peak).toBeLessThan(8 * FIVE_MB);
    expect(left).toBe(0);
  });
});

describe('toolhost serve --session-idle-timeout', () => {
  it.each([
    ['0', ['--http']],
    ['-1', ['--http']],
    ['ten', ['--http']],
    ['3000000', ['--http']],
    ['5', []],
  ])('refuses %s (with %j) as a usage error before serving', async (value, extra) => {
    const result = await runCli(['serve', ...extra, '--session-idle-timeout', value], {
      cwd: tmpdir(),
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--session-idle-timeout (takes a number|needs --http)/u);
    expect(result.stderr).not.toContain('Streamable HTTP at');
  });
});

describe('toolhost serve over stdio', () => {
  let sandbox = '';
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-serve-stdio-run-')));
    await mkdir(path.join(sandbox, 'app'));
    await writeFile(path.join(sandbox, 'app', 'big.txt'), 'stdio spill\n'.repeat(50_000));
  });
  afterAll(() => rm(sandbox, { recursive: true, force: true }));

  it('sweeps its run when stopped by SIGTERM', async () => {
    const serve = await connectServe([
      '--root',
      path.join(sandbox, 'app'),
      '--state-dir',
      path.join(sandbox, 'state'),
      '--tools',
      'read_file',
    ]);
    const ref = await spillOf(serve.client, 'big.txt');
    const spilled = existsSync(ref);

    process.kill(serve.pid ?? 0, 'SIGTERM');
    await waitFor(() => !existsSync(path.dirname(ref)));
    await serve.close();

    expect(spilled).toBe(true);
    expect(existsSync(path.dirname(ref))).toBe(false);
  });

  it('sweeps its run when the client hangs up', async () => {
    const serve = await connectServe([
      '--root',
      path.join(sandbox, 'app'),
      '--state-dir',
      path.join(sandbox, 'state'),
      '--tools',
      'read_file',
    ]);
    const ref = await spillOf(serve.client, 'big.txt');
    const spilled = existsSync(ref);

    await serve.close();

    expect(spilled).toBe(true);
    expect(existsSync(path.dirname(ref))).toBe(false);
  });
});

async function connect(url: string) {
  const client = new Client({ name: 'toolhost-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

// The spill path the bounded result names ("full output at <ref> (page it …)").
async function spillOf(client: Client, file: string): Promise<string> {
  const { text } = await readText(client, { path: file });
  const ref = /full output at (\S+) \(page it/u.exec(text)?.[1];
  if (ref === undefined) throw new Error(`no spill reference in: ${text.slice(0, 200)}`);
  return ref;
}

async function readText(
  client: Client,
  args: { readonly path: string; readonly limit?: number },
): Promise<{ refused: boolean; text: string }> {
  try {
    const result = await client.callTool({ name: 'read_file', arguments: args });
    return { refused: result.isError === true, text: JSON.stringify(result.content) };
  } catch (error) {
    return { refused: true, text: String(error) };
  }
}

async function readMedia(
  client: Client,
  handle: string,
): Promise<{ refused: boolean; text: string }> {
  try {
    const result = await client.callTool({ name: 'read_media', arguments: { handle } });
    return { refused: result.isError === true, text: JSON.stringify(result) };
  } catch (error) {
    return { refused: true, text: String(error) };
  }
}

async function bytesUnder(directory: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(directory).catch((): string[] => [])) {
    const entry = path.join(directory, name);
    const info = await stat(entry).catch(() => undefined);
    if (info?.isDirectory() === true) total += await bytesUnder(entry);
    else total += info?.size ?? 0;
  }
  return total;
}

async function waitFor(done: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await done()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}
