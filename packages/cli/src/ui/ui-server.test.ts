import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalBroker } from './approval-broker.js';
import { loopbackRequest } from './test-support/loopback-request.js';
import {
  PLANTED_SECRET,
  runPlantedSecretCalls,
  type PlantedSecretRun,
} from './test-support/planted-secret-run.js';
import type { UiEvent } from './ui-event.js';
import { UiEventHub } from './ui-event-hub.js';
import { startUiServer, type RunningUiServer } from './ui-server.js';

describe('the control tower server', () => {
  let run: PlantedSecretRun;
  let server: RunningUiServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    run = await runPlantedSecretCalls();
    server = await startUiServer({
      hub: run.hub,
      sessions: run.sessions,
      broker: new ApprovalBroker({ timeoutMs: 60_000 }),
      policy: { sections: [{ title: 'Grant', rows: [{ label: 'tools', value: 'read_file' }] }] },
    });
    auth = { authorization: `Bearer ${new URL(server.url).searchParams.get('token') ?? ''}` };
  }, 30_000);
  afterAll(async () => {
    await server.close();
    await run.close();
  });

  it('never sends the planted secret on any route the page reads', async () => {
    const spill = spillOf(run.hub.recent());
    const answers = await Promise.all(
      [
        '/',
        '/ui.js',
        '/events',
        '/api/timeline',
        '/api/approvals',
        '/api/policy',
        '/api/sessions',
        `/api/sessions/s1/spills/${spill}`,
      ].map((target) =>
        loopbackRequest(server.port, target, {
          headers: auth,
          readMs: target === '/events' ? 300 : undefined,
        }),
      ),
    );

    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).not.toContain(PLANTED_SECRET);
    }
    expect(answers[2]?.body).toContain('event: tool');
    expect(answers[7]?.body).toContain('token=[redacted]');
  });

  it('replays the kept events to a page that connects late, from the last id it saw', async () => {
    const all = await loopbackRequest(server.port, '/events', { headers: auth, readMs: 300 });
    const resumed = await loopbackRequest(server.port, '/events', {
      headers: { ...auth, 'last-event-id': '10' },
      readMs: 300,
    });

    expect(ids(all.body)).toEqual(run.hub.recent().map((event) => event.seq));
    expect(ids(resumed.body)).toEqual([11, 12]);
  });

  it('answers a spill of one session asked for under another with 404', async () => {
    const spill = spillOf(run.hub.recent());
    run.sessions.open('s2');

    const foreign = await loopbackRequest(server.port, `/api/sessions/s2/spills/${spill}`, {
      headers: auth,
    });
    const unknown = await loopbackRequest(server.port, '/api/sessions/nobody/spills/x', {
      headers: auth,
    });

    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
  });

  it.each([
    ['tool', 'tool=read_file', ['read_file']],
    ['verdict', 'verdict=denied', ['write_file']],
    ['session', 'session=s1', ['read_file', 'write_file']],
    ['an unknown session', 'session=nobody', []],
  ])('filters the timeline by %s', async (_case, query, tools) => {
    const answer = await loopbackRequest(server.port, `/api/timeline?${query}`, { headers: auth });
    const { events } = JSON.parse(answer.body) as { events: UiEvent[] };

    expect([...new Set(events.map((event) => event.toolId))].sort()).toEqual(tools);
  });

  it('drops an event-stream client that stops reading instead of buffering for it', async () => {
    const hub = new UiEventHub({ capacity: 1 });
    const slow = await startUiServer({ hub, policy: { sections: [] } });
    const socket = connect(slow.port, '127.0.0.1');
    socket.write(
      `GET /events HTTP/1.1\r\nhost: 127.0.0.1:${slow.port}\r\n${`authorization: Bearer ${new URL(slow.url).searchParams.get('token') ?? ''}`}\r\n\r\n`,
    );
    socket.pause();
    await waitFor(() => hub.subscriberCount === 1);

    const summary = 'x'.repeat(32 * 1024);
    for (let index = 0; index < 2000 && hub.subscriberCount > 0; index += 1) {
      hub.publish({
        sessionId: 's',
        callId: 'c',
        toolId: 't',
        step: 'result',
        success: true,
        outputSummary: summary,
        durationMs: 1,
      });
      await new Promise((resolve) => setImmediate(resolve));
    }

    expect(hub.subscriberCount).toBe(0);
    socket.destroy();
    await slow.close();
  }, 30_000);
});

function spillOf(events: readonly UiEvent[]): string {
  for (const event of events) if (event.step === 'result' && event.spill) return event.spill.id;
  throw new Error('no spill');
}

function ids(body: string): number[] {
  return [...body.matchAll(/^id: (\d+)$/gmu)].map((match) => Number(match[1]));
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !condition(); tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
}
