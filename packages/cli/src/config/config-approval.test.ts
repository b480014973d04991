import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CONFIG_APPROVALS_DIR,
  hashConfigBytes,
  readConfigApproval,
  recordConfigApproval,
} from './config-approval.js';

describe('config approval records', () => {
  let stateDir = '';
  const subject = (sha256: string, key = '/w/app/toolhost.config.json') => ({
    stateDir,
    key,
    sha256,
  });
  beforeEach(async () => {
    stateDir = join(await mkdtemp(join(tmpdir(), 'toolhost-approval-')), 'state');
  });
  afterEach(() => rm(join(stateDir, '..'), { recursive: true, force: true }));

  it('approves exactly the recorded digest', () => {
    recordConfigApproval(subject(hashConfigBytes(Buffer.from('{}'))));

    const status = readConfigApproval(subject(hashConfigBytes(Buffer.from('{}'))));

    expect(status).toBe('approved');
  });

  it.each([
    ['no record at all', undefined, 'unapproved'],
    ['a record of other bytes', '{"mode":"auto"}', 'changed'],
  ])('refuses with %s', (_case, recorded, expected) => {
    if (recorded !== undefined)
      recordConfigApproval(subject(hashConfigBytes(Buffer.from(recorded))));

    const status = readConfigApproval(subject(hashConfigBytes(Buffer.from('{}'))));

    expect(status).toBe(expected);
  });

  it('keeps one record per config place', () => {
    recordConfigApproval(subject('a'.repeat(64), '/w/one/toolhost.config.json'));

    const status = readConfigApproval(subject('a'.repeat(64), '/w/two/toolhost.config.json'));

    expect(status).toBe('unapproved');
  });

  it('treats a torn or foreign record as no approval', async () => {
    recordConfigApproval(subject('b'.repeat(64)));
    const [name] = await readdir(join(stateDir, CONFIG_APPROVALS_DIR));
    await writeFile(join(stateDir, CONFIG_APPROVALS_DIR, name ?? ''), '{"key": "/w/app/too');

    const status = readConfigApproval(subject('b'.repeat(64)));

    expect(status).toBe('unapproved');
  });

  it('writes the record owner-only', async () => {
    recordConfigApproval(subject('c'.repeat(64)));
    const [name] = await readdir(join(stateDir, CONFIG_APPROVALS_DIR));

    const mode = (await stat(join(stateDir, CONFIG_APPROVALS_DIR, name ?? ''))).mode & 0o777;

    expect(mode).toBe(0o600);
  });
});
