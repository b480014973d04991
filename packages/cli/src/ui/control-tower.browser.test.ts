import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeUiProcess } from './test-support/serve-ui-process.js';
import {
  startServeUiWithClients,
  type ServeUiWithClients,
} from './test-support/serve-ui-with-clients.js';

// Debian's chromium (`.ci/run` installs it): playwright-core drives it, nothing is downloaded.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env['CI'] !== undefined)
  throw new Error(`control-tower browser tests: ${CHROMIUM} is missing (CI installs chromium)`);
if (!hasChromium)
  console.warn(`control-tower browser tests skipped: no ${CHROMIUM} (apt-get install chromium)`);

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '../../test-artifacts/ui');
const DOCS_SCREENSHOT = path.resolve(here, '../../../../docs/control-tower.png');

describe.skipIf(!hasChromium)('the control tower in a real browser', () => {
  let base = '';
  let root = '';
  let served: ServeUiWithClients;
  let serve: ServeUiProcess;
  let client: Client;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-tower-')));
    root = path.join(base, 'app');
    await mkdir(root);
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(path.join(root, 'notes.txt'), 'the control tower sees this call\n');
    await writeFile(
      path.join(root, 'build.log'),
      Array.from({ length: 300 }, (_, line) => `step ${line}: compiled module ${line}\n`).join(''),
    );
    // No elicitation capability: under `ask` a write can only be approved from the page.
    served = await startServeUiWithClients(
      [
        '--root',
        root,
        '--state-dir',
        path.join(base, 'state'),
        '--tools',
        'read_file,write_file,list_directory',
        '--mode',
        'ask',
        '--max-bytes',
        '2048',
        '--ui-approval-timeout',
        '60',
      ],
      ['tower-test'],
    );
    serve = served.serve;
    [client] = served.clients as [Client];
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
    await page.goto(serve.uiUrl);
    await page.locator('#connection[data-state="live"]').waitFor();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await rm(base, { recursive: true, force: true });
  }, 30_000);

  it('shows a call the client made, with its redacted input and verdict', async () => {
    const result = await call('read_file', { path: 'notes.txt' });

    const row = page.locator('#calls-body tr[data-tool="read_file"]');
    await expect.poll(() => row.getAttribute('data-verdict')).toBe('succeeded');
    expect(result.isError).not.toBe(true);
    expect(await row.locator('.cell-input').textContent()).toContain('notes.txt');
    await page.screenshot({ path: path.join(ARTIFACTS, 'call-appears.png'), fullPage: true });
  });

  it('shows a cut result with its spill, readable from the page', async () => {
    await call('read_file', { path: 'build.log' });

    const button = page.getByRole('button', { name: /view the spill of this read_file call/iu });
    await button.click();
    await expect.poll(() => page.locator('#spill-text').textContent()).toContain('step 299');
    await page.screenshot({ path: path.join(ARTIFACTS, 'spill-view.png'), fullPage: true });
  });

  it('sends a denial from the page to the client as an isError result', async () => {
    const pending = call('write_file', { path: 'refused.txt', content: 'never written' });

    const card = page.locator('#approvals-list li.approval', { hasText: 'refused.txt' });
    await card.waitFor();
    await card.getByLabel(/reason for a denial/iu).fill('not this file');
    await page.screenshot({ path: path.join(ARTIFACTS, 'deny-pending.png'), fullPage: true });
    await card.getByRole('button', { name: 'Deny' }).click();
    const result = await pending;

    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/user_rejected|rejected/iu);
    expect(existsSync(path.join(root, 'refused.txt'))).toBe(false);
    await card.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('#calls-body tr[data-verdict="denied"]').count()).toBe(1);
  });

  it('approves a pending write from the page, and the file lands', async () => {
    const pending = call('write_file', {
      path: 'approved.txt',
      content: 'written after approval\n',
    });

    const card = page.locator('#approvals-list li.approval', { hasText: 'approved.txt' });
    await card.waitFor();
    await expect
      .poll(() => page.locator('#announcer').textContent())
      .toMatch(/write_file is waiting/u);
    // What will be written, before it is: the mode, the size and the text itself, as text.
    expect(await card.locator('.preview').textContent()).toContain(
      'replace the whole file with 23 bytes',
    );
    expect(await card.locator('pre.preview-content').textContent()).toBe(
      'written after approval\n',
    );
    expect(await card.locator('.preview-cut').count()).toBe(0);
    const row = page.locator('#calls-body tr[data-verdict="waiting"]', { hasText: 'approved.txt' });
    const rowSession = await row.locator('.cell-session').getAttribute('title');
    expect(rowSession).toMatch(/^[0-9a-f-]{36}$/u);
    expect(await card.getAttribute('data-session-id')).toBe(rowSession);
    expect(await card.locator('.approval-session code').getAttribute('title')).toBe(rowSession);
    await page.screenshot({ path: path.join(ARTIFACTS, 'approve-pending.png'), fullPage: true });
    if (process.env['TOOLHOST_UPDATE_SCREENSHOT'] === '1')
      await page.screenshot({ path: DOCS_SCREENSHOT, fullPage: true });
    await card.getByRole('button', { name: 'Approve once' }).click();
    const result = await pending;

    expect(result.isError).not.toBe(true);
    expect(await readFile(path.join(root, 'approved.txt'), 'utf8')).toBe(
      'written after approval\n',
    );
    await card.waitFor({ state: 'detached' });
    await page.screenshot({ path: path.join(ARTIFACTS, 'approved.png'), fullPage: true });
  });

  it('shows a long write as its scrubbed start with a visible cut, the secret redacted', async () => {
    const token = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A';
    const content = `token=${token}\n` + 'filler line of the file\n'.repeat(400);
    const pending = call('write_file', { path: 'long.txt', content, append: true });

    const card = page.locator('#approvals-list li.approval', { hasText: 'long.txt' });
    await card.waitFor();
    const shown = await card.textContent();
    await card.getByRole('button', { name: 'Deny' }).click();
    await pending;

    expect(shown).toContain(`append ${content.length} bytes to the end of the file`);
    expect(shown).toContain('content (start)');
    expect(shown).toContain('token=[redacted]');
    expect(shown).toContain('✂ cut here');
    expect(shown).not.toContain(token.slice(4, 12));
  });

  it('shows an attacker-chosen preview as text, never as markup', async () => {
    const hostile = '<img src=x onerror="document.title=1">.txt';
    const pending = call('write_file', { path: hostile, content: 'x' });

    const card = page.locator('#approvals-list li.approval', { hasText: '<img src=x' });
    await card.waitFor();
    const images = await page.locator('main img').count();
    await card.getByRole('button', { name: 'Deny' }).click();
    const result = await pending;

    expect(images).toBe(0);
    expect(await card.count()).toBe(0);
    expect(result.isError).toBe(true);
    expect(await page.locator('#calls-body').textContent()).toContain('<img src=x');
  });

  it('filters the timeline by tool and verdict', async () => {
    await page.getByLabel('Verdict').selectOption('denied');

    const entries = page.locator('#timeline-list li');
    await expect.poll(() => entries.count()).toBeGreaterThan(0);
    expect(new Set(await entries.locator('.entry-tool').allTextContents())).toEqual(
      new Set(['write_file']),
    );
    await page.getByLabel('Verdict').selectOption('');
    await page.getByLabel('Tool', { exact: true }).selectOption('read_file');
    expect(new Set(await entries.locator('.entry-tool').allTextContents())).toEqual(
      new Set(['read_file']),
    );
    await page.getByLabel('Tool', { exact: true }).selectOption('');
  });

  it('answers a wrong token with 401', async () => {
    const wrong = new URL(serve.uiUrl);
    wrong.searchParams.set('token', 'not-the-token');
    const other = await browser.newPage();

    const response = await other.goto(wrong.href);

    expect(response?.status()).toBe(401);
    await other.screenshot({ path: path.join(ARTIFACTS, 'wrong-token.png') });
    await other.close();
  });

  it('answers a request from a page of a foreign origin with 403', async () => {
    const foreign = await servePage('<!doctype html><title>elsewhere</title><p>another site</p>');
    const other = await browser.newPage();
    await other.goto(foreign.url);
    const target = new URL('/api/approvals', serve.uiUrl);
    target.search = new URL(serve.uiUrl).search;
    // The browser hides a cross-origin answer from the page (and from `response` events); the
    // route sees the request the page sent, Origin included, and the server's real answer.
    const seen: { status: number; origin?: string; cors?: string }[] = [];
    await other.route(`${target.origin}/**`, async (route) => {
      const answer = await route.fetch();
      seen.push({
        status: answer.status(),
        ...(route.request().headers()['origin'] === undefined
          ? {}
          : { origin: route.request().headers()['origin'] }),
        ...(answer.headers()['access-control-allow-origin'] === undefined
          ? {}
          : { cors: answer.headers()['access-control-allow-origin'] }),
      });
      await route.fulfill({ response: answer });
    });

    await other.evaluate((url) => fetch(url).catch(() => undefined), target.href);

    expect(seen).toEqual([{ status: 403, origin: foreign.url.replace(/\/$/u, '') }]);
    await other.close();
    await new Promise((resolve) => foreign.server.close(resolve));
  });

  function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  }
});

// Another origin on loopback: the page a drive-by site would be.
async function servePage(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
