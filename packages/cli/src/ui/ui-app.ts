import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { ApprovalBroker, PageDecision } from './approval-broker.js';
import type { UiEventHub } from './ui-event-hub.js';
import { uiGuard, type LoopbackAllowlist } from './ui-guard.js';
import { UI_PAGE_SCRIPT } from './page/ui-page-script.js';
import { UI_PAGE_STYLE } from './page/ui-page-style.js';
import { renderUiPage } from './page/ui-page-html.js';
import type { UiPolicyView } from './ui-policy-view.js';
import type { UiSessionTable } from './ui-session-table.js';
import { openSseStream, type SseChannel } from './ui-sse.js';
import { filterTimeline } from './ui-timeline.js';

/** What the page's routes read from and answer to. */
export interface UiAppOptions {
  readonly token: string;
  readonly allowed: () => LoopbackAllowlist;
  readonly hub: UiEventHub;
  /** Absent (`toolhost ui` over an audit log): no approvals, the routes say so. */
  readonly broker?: ApprovalBroker;
  readonly policy: UiPolicyView;
  readonly sessions?: UiSessionTable;
  /** `serve` (live, with approvals) or `audit` (a log file, read-only). */
  readonly source: 'serve' | 'audit';
  /** Every open stream, so a closing server ends them. */
  readonly channels: Set<SseChannel>;
}

// Ids the server made (`randomUUID`); anything else is no key of any table.
const ID = /^[0-9a-f-]{36}$/u;

/** The control tower's routes, every one behind `uiGuard`. */
export function createUiApp(options: UiAppOptions): Hono<{ Bindings: HttpBindings }> {
  const { hub, broker, sessions } = options;
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.use('*', uiGuard(options.token, options.allowed));

  app.get('/', (c) => c.html(renderUiPage(options.token)));
  app.get('/ui.js', (c) =>
    c.body(UI_PAGE_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/ui.css', (c) =>
    c.body(UI_PAGE_STYLE, 200, { 'content-type': 'text/css; charset=utf-8' }),
  );

  app.get('/events', (c) => {
    const after = Number(c.req.header('last-event-id') ?? c.req.query('after') ?? 0);
    const unsubscribe: (() => void)[] = [];
    let own: SseChannel | undefined;
    const body = openSseStream(
      (channel) => {
        own = channel;
        options.channels.add(channel);
        channel.send('hello', { source: options.source, approvals: broker !== undefined });
        for (const event of hub.recent(Number.isSafeInteger(after) ? after : 0))
          channel.send('tool', event, event.seq);
        if (broker !== undefined) channel.send('pending', broker.pending());
        unsubscribe.push(hub.subscribe((event) => channel.send('tool', event, event.seq)));
        if (broker !== undefined)
          unsubscribe.push(broker.subscribe((change) => channel.send('approval', change)));
      },
      () => {
        for (const stop of unsubscribe) stop();
        if (own !== undefined) options.channels.delete(own);
      },
      () => c.env.outgoing.destroy(),
    );
    return c.body(body, 200, {
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
  });

  app.get('/api/approvals', (c) => {
    // The timeline's session filter covers approvals too: one session's waiting calls alone.
    const session = filterValue('session', c.req.query('session'))['session'];
    const pending = broker?.pending() ?? [];
    return c.json({
      pending:
        session === undefined ? pending : pending.filter((entry) => entry.sessionId === session),
    });
  });

  app.post('/api/approvals/:id', async (c) => {
    if (broker === undefined) return c.json({ error: 'this page takes no approvals' }, 404);
    const id = c.req.param('id');
    const body: unknown = await c.req.json().catch(() => undefined);
    const decision = toDecision(body);
    if (decision === undefined) return c.json({ error: 'unknown decision' }, 400);
    const sessionId = sessionOf(body);
    // Unknown, settled already (a second click, another answer first), or another session's:
    // nothing changed.
    if (!ID.test(id) || !broker.decide(id, decision, sessionId))
      return c.json({ error: 'no such pending approval' }, 404);
    return c.json({ decided: true });
  });

  app.get('/api/timeline', (c) => {
    const filter = {
      ...filterValue('tool', c.req.query('tool')),
      ...filterValue('verdict', c.req.query('verdict')),
      ...filterValue('session', c.req.query('session')),
    };
    return c.json({ events: filterTimeline(hub.recent(), filter) });
  });

  app.get('/api/policy', (c) => c.json(options.policy));

  app.get('/api/sessions', (c) => c.json({ sessions: sessions?.list() ?? [] }));

  app.get('/api/sessions/:session/spills/:spill', async (c) => {
    const view = await sessions?.readSpill(c.req.param('session'), c.req.param('spill'));
    if (view === undefined) return c.json({ error: 'no such spill in this session' }, 404);
    return c.json(view);
  });

  app.notFound((c) => c.json({ error: 'not found' }, 404));
  app.onError((_error, c) => c.json({ error: 'internal error' }, 500));
  return app;
}

function toDecision(body: unknown): PageDecision | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { choice, reason } = body as { choice?: unknown; reason?: unknown };
  switch (choice) {
    case 'once':
      return { choice: 'once' };
    case 'session':
      return { choice: 'session' };
    case 'deny':
      // The broker bounds and cleans the reason; anything but a string is no reason.
      return typeof reason === 'string' ? { choice: 'deny', reason } : { choice: 'deny' };
    default:
      return undefined;
  }
}

// The session the page showed the approval under; a body naming none is checked by id alone.
function sessionOf(body: unknown): string | undefined {
  const sessionId = (body as { sessionId?: unknown }).sessionId;
  return typeof sessionId === 'string' ? sessionId.slice(0, 200) : undefined;
}

function filterValue(key: string, value: string | undefined): Record<string, string> {
  return value === undefined || value === '' ? {} : { [key]: value.slice(0, 200) };
}
