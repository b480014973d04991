import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../mcp/test-support/serve-client.js';
import { loopbackRequest } from './test-support/loopback-request.js';
import { PLANTED_SECRET } from './test-support/planted-secret-run.js';
import type { UiEvent } from './ui-event.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin.ts');

describe('toolhost ui --audit-log', () => {
  let base = '';
  let file = '';
  let url: URL;
  let stop: () => Promise<unknown> = async () => undefined;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'toolhost-ui-log-'));
    file = path.join(base, 'audit.jsonl');
    await writeFile(
      file,
      [
        line('tool_call', {
          toolId: 'write_file',
          toolInput: { path: 'a.txt', content: PLANTED_SECRET },
        }),
        line('approval_requested', {
          toolId: 'write_file',
          action: 'fs_write',
          // What the log writes (mode and size), and a `content` it never writes, dropped.
          preview: {
            path: `d/${PLANTED_SECRET}`,
            writeMode: 'append',
            byteCount: 12,
            content: 'not from this log',
          },
        }),
        line('approval_decided', {
          toolId: 'write_file',
          outcome: 'denied',
          by: 'page',
          reason: `not with ${PLANTED_SECRET} in it`,
        }),
        line('tool_result', {
          toolId: 'write_file',
          success: false,
          errorCode: 'tool_denied',
          reason: 'user_rejected',
        }),
        'not json at all',
      ].join('\n') + '\n',
    );
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', BIN, 'ui', '--audit-log', file],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    stop = () => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
      return exited;
    };
    url = await new Promise<URL>((resolve, reject) => {
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const found = /toolhost ui: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/u.exec(stderr)?.[1];
        if (found !== undefined) resolve(new URL(found));
      });
      void exited.then(() => reject(new Error(`toolhost ui exited: ${stderr}`)));
    });
  }, 30_000);
  afterAll(async () => {
    await stop();
    await rm(base, { recursive: true, force: true });
  });

  it('shows the log as a timeline, every string redacted again', async () => {
    const events = await timeline();

    expect(events.map((event) => event.step)).toEqual([
      'called',
      'approval_requested',
      'approval_decided',
      'result',
    ]);
    expect(new Set(events.map((event) => event.callId)).size).toBe(1);
    expect(JSON.stringify(events)).not.toContain(PLANTED_SECRET);
    expect(events[1]).toMatchObject({
      preview: { path: 'd/[redacted]', writeMode: 'append', byteCount: 12 },
    });
    expect(events[1]).not.toHaveProperty('preview.content');
    expect(events[2]).toMatchObject({ outcome: 'denied', by: 'page' });
    expect(events[2]).toHaveProperty('reason', expect.stringMatching(/^not with .+ in it$/u));
    expect(events[3]).toMatchObject({ success: false, errorCode: 'tool_denied' });
  });

  it('follows lines appended after it started', async () => {
    await appendFile(
      file,
      `${line('tool_call', { toolId: 'read_file', toolInput: { path: 'b' } })}\n`,
    );

    await expect
      .poll(async () => (await timeline()).map((event) => event.toolId), { timeout: 5000 })
      .toContain('read_file');
  });

  it('takes no approvals', async () => {
    const answer = await loopbackRequest(
      Number(url.port),
      '/api/approvals/00000000-0000-4000-8000-000000000000',
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${url.searchParams.get('token') ?? ''}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ choice: 'once' }),
      },
    );

    expect(answer.status).toBe(404);
  });

  async function timeline(): Promise<UiEvent[]> {
    const answer = await loopbackRequest(Number(url.port), `/api/timeline${url.search}`);
    return (JSON.parse(answer.body) as { events: UiEvent[] }).events;
  }
});

function line(event: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ ts: new Date().toISOString(), runId: 'run-1', event, ...payload });
}
