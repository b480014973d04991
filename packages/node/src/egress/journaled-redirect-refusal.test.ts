import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  type ToolCall,
  type ToolDispatchContext,
} from '@toolhost/core';
import { createMemoryEffectJournal, type EffectJournal } from '@toolhost/core/journal';

import { createNodeToolHost, type NodeToolHostHandle } from '../create-node-tool-host.js';
import { createSqliteEffectJournal } from '../journal/create-sqlite-effect-journal.js';
import type { DialTarget } from './create-pinned-dispatcher.js';
import { mapLookup } from './test-support/map-lookup.js';
import { createTestCertificate, type TestCertificate } from './test-support/test-certificate.js';
import { startTestHttpsServer, type TestHttpsServer } from './test-support/test-https-server.js';

// Issue 37: a redirect hop refused after the first POST landed must keep the journal's claim, so
// the same call is never sent again; a refusal of the first hop, before anything was sent, still
// discards it. Real HTTPS on 127.0.0.1, the real Node host and the real journals.

const API = '93.184.215.14';
// A name the allowlist admits whose DNS answer the SSRF floor refuses: caught inside the host,
// after the journal's claim, before any request.
const PRIVATE = '10.20.30.40';

const REFUND = { method: 'POST', url: 'https://api.example.com/refunds', body: '{"amount":1}' };
const POST: ToolCall = { id: 'call-refund-1', name: 'http_request', args: REFUND };

type JournalKind = 'memory' | 'sqlite';

describe('a journaled http_request refused on a redirect hop', () => {
  let certificate: TestCertificate;
  let server: TestHttpsServer;
  let base = '';
  let handle: NodeToolHostHandle;
  const dials: DialTarget[] = [];
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    certificate = createTestCertificate();
    server = await startTestHttpsServer(certificate);
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-redirect-journal-')));
    const root = path.join(base, 'app');
    await mkdir(root);
    handle = await createNodeToolHost({
      root,
      stateDir: path.join(base, 'state'),
      egress: {
        // Public answers, dialled on loopback: the SSRF floor judges the names, not the dial.
        lookup: mapLookup({ 'api.example.com': [API], 'private.example.com': [PRIVATE] }),
        ca: certificate.ca,
        dialTcp: server.dialToHere(dials),
      },
    });
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    server.seen.length = 0;
    server.handler = (_request, response) => response.end('ok');
  });
  afterAll(async () => {
    await handle?.close();
    await server?.close();
    await rm(base, { recursive: true, force: true });
  });

  async function journalOf(kind: JournalKind): Promise<EffectJournal> {
    if (kind === 'memory') return createMemoryEffectJournal();
    const store = await createSqliteEffectJournal({
      file: path.join(await mkdtemp(path.join(base, 'journal-')), 'effects.db'),
    });
    closers.push(() => store.close());
    return store;
  }

  function contextFor(store: EffectJournal): ToolDispatchContext {
    return {
      nodeId: 'redirect-journal-test',
      grantedToolIds: new Set(['http_request']),
      config: {},
      toolPolicy: { allowedDomains: ['api.example.com', 'private.example.com'] },
      fsScope: 'sandboxed',
      gateApproved: true,
      journal: { store, runId: 'run-redirect' },
    };
  }

  const posts = () => server.seen.filter((seen) => seen.method === 'POST').length;

  // Every attempt runs on a fresh registry over the same store, as a resumed run would.
  const dispatch = (store: EffectJournal, call: ToolCall = POST) =>
    createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host })
      .dispatch(call, contextFor(store))
      .catch((error: unknown) => error);

  describe.each<JournalKind>(['memory', 'sqlite'])('on the %s journal', (kind) => {
    it.each([
      ['another host', 'https://evil.example.net/refunds', 'domain_not_allowed'],
      ['plain http', 'http://api.example.com/refunds', 'insecure_url'],
    ])(
      'a 307 to %s: refused once, then effect_unresolved, and the POST sent once',
      async (_case, location, reason) => {
        server.handler = (_request, response) => {
          response.statusCode = 307;
          response.setHeader('location', location);
          response.end();
        };
        const store = await journalOf(kind);

        const first = await dispatch(store);

        expect(first).toMatchObject({ code: 'tool_denied', reason });
        expect(posts()).toBe(1);

        const again = await dispatch(store);

        expect(again).toMatchObject({ reason: 'effect_unresolved' });
        expect(posts()).toBe(1);
      },
    );

    it('a first hop the SSRF floor refuses sends nothing and discards the claim', async () => {
      const store = await journalOf(kind);
      const call: ToolCall = {
        ...POST,
        args: { ...REFUND, url: 'https://private.example.com/refunds' },
      };

      const first = await dispatch(store, call);
      const again = await dispatch(store, call);

      // The rerun is judged afresh (refused the same way), not taken for a half-done call.
      expect(first).toMatchObject({ code: 'tool_denied', reason: 'ssrf_blocked' });
      expect(again).toMatchObject({ code: 'tool_denied', reason: 'ssrf_blocked' });
      expect(server.seen).toHaveLength(0);
    });
  });
});
