import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiEvent } from './ui-event.js';
import {
  PLANTED_SECRET,
  runPlantedSecretCalls,
  type PlantedSecretRun,
} from './test-support/planted-secret-run.js';

describe('withUiEvents', () => {
  let run: PlantedSecretRun;
  beforeAll(async () => {
    run = await runPlantedSecretCalls();
  }, 30_000);
  afterAll(() => run.close());

  it('reports every step of every call: called, approval requested and decided, result', () => {
    const steps = run.hub.recent().map((event) => `${event.toolId}:${event.step}`);

    expect(steps).toEqual([
      'write_file:called',
      'write_file:approval_requested',
      'write_file:approval_decided',
      'write_file:result',
      'read_file:called',
      'read_file:result',
      'write_file:called',
      'write_file:approval_requested',
      'write_file:approval_decided',
      'write_file:result',
      'read_file:called',
      'read_file:result',
    ]);
  });

  it('never lets the planted secret into any event field', () => {
    const shown = JSON.stringify(run.hub.recent());

    expect(shown).not.toContain(PLANTED_SECRET);
    expect(shown).toContain('[redacted]');
  });

  it("shows the page a write's mode, size and scrubbed start, cut at the cap", () => {
    const [asked] = run.hub.recent().filter((event) => event.step === 'approval_requested');

    expect(asked).toMatchObject({
      preview: {
        path: 'notes/[redacted].txt',
        writeMode: 'replace',
        byteCount: 'token='.length + PLANTED_SECRET.length + 1 + 400 * 20,
        contentTruncated: true,
      },
    });
    const content = asked?.step === 'approval_requested' ? asked.preview.content : undefined;
    expect(content?.startsWith('token=[redacted]\nline of filler text\n')).toBe(true);
    expect(content?.length).toBeLessThanOrEqual(4096);
  });

  it('shows the input and output as the engine projected them, and the spill by id only', () => {
    const read = results(run.hub.recent()).find((event) => event.toolId === 'read_file');

    expect(read).toMatchObject({
      success: true,
      truncated: true,
      toolInput: { path: 'notes/[redacted].txt' },
      spill: { id: expect.stringMatching(/^[0-9a-f-]{36}$/u) },
    });
    expect(read?.resultBytes).toBeLessThanOrEqual(4096);
    // The page names a spill by an id of its session, never by the host path it lies at.
    expect(Object.keys(read?.spill ?? {})).toEqual(['id', 'byteLength']);
  });

  it('labels a gate denial and a host failure by code, with the reason redacted', () => {
    const [, , denied, failed] = results(run.hub.recent());
    const decided = run.hub.recent().filter((event) => event.step === 'approval_decided');

    expect(denied).toMatchObject({ success: false, errorCode: 'tool_denied' });
    expect(failed).toMatchObject({ success: false, errorCode: expect.any(String) });
    expect(decided[1]).toMatchObject({ outcome: 'denied', reason: 'no: [redacted] is mine' });
  });

  it('reads a spill redacted, and only under the session that made it', async () => {
    const spill = results(run.hub.recent()).find((event) => event.spill !== undefined)?.spill;
    const other = run.sessions.open('s2');

    const own = await run.sessions.readSpill('s1', spill?.id ?? '');
    const foreign = await run.sessions.readSpill('s2', spill?.id ?? '');

    expect(own?.text).toContain('token=[redacted]');
    expect(own?.text).not.toContain(PLANTED_SECRET);
    expect(foreign).toBeUndefined();
    other.close();
  });
});

function results(events: readonly UiEvent[]) {
  return events.flatMap((event) => (event.step === 'result' ? [event] : []));
}
