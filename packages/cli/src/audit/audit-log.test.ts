import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAuditLog } from './audit-log.js';

describe('openAuditLog', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolhost-audit-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('appends one JSON line per event with a timestamp and the run id', async () => {
    const file = join(dir, 'audit.jsonl');
    await writeFile(file, '{"earlier":true}\n');
    const log = openAuditLog({ file, runId: 'run-1', now: () => new Date(0) });

    log.write('tool_call', { toolId: 'read_file', toolInput: { path: 'a' } });
    const afterOne = await readFile(file, 'utf8');
    log.write('tool_result', { toolId: 'read_file', success: true });
    log.close();

    expect(afterOne.split('\n')).toHaveLength(3);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines[0]).toBe('{"earlier":true}');
    expect(JSON.parse(lines[1] ?? '')).toEqual({
      ts: '1970-01-01T00:00:00.000Z',
      runId: 'run-1',
      event: 'tool_call',
      toolId: 'read_file',
      toolInput: { path: 'a' },
    });
  });

  it('scrubs every string leaf before writing', async () => {
    const file = join(dir, 'audit.jsonl');
    const log = openAuditLog({ file, runId: 'r', scrub: (text) => text.replace('SECRET', '***') });

    log.write('tool_call', { toolInput: { nested: ['a SECRET here'] } });
    log.close();

    expect(await readFile(file, 'utf8')).not.toContain('SECRET');
  });

  it('creates the file owner-only', async () => {
    const file = join(dir, 'new.jsonl');

    openAuditLog({ file, runId: 'r' }).close();

    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
