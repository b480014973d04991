import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';
import { createWorkspace, type Workspace } from '../../test/workspace.js';

describe('toolhost serve --ui options', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await createWorkspace();
  });
  afterAll(() => ws.cleanup());

  it.each([
    ['--ui-port without --ui', ['--ui-port', '0'], '--ui-port needs --ui'],
    [
      '--ui-approval-timeout without --ui',
      ['--ui-approval-timeout', '5'],
      '--ui-approval-timeout needs --ui',
    ],
    ['a port that is no number', ['--ui', '--ui-port', 'eighty'], '--ui-port takes a port number'],
    ['a port past 65535', ['--ui', '--ui-port', '70000'], '--ui-port takes a port number'],
    [
      'a timeout of zero',
      ['--ui', '--ui-approval-timeout', '0'],
      '--ui-approval-timeout takes a number of seconds',
    ],
    [
      'a negative timeout',
      ['--ui', '--ui-approval-timeout=-3'],
      '--ui-approval-timeout takes a number of seconds',
    ],
  ])('refuses %s as a usage error before serving', async (_case, flags, message) => {
    const run = await runCli(['serve', ...flags, ...ws.stateFlags], { cwd: ws.root });

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toContain('toolhost ui: http');
  });

  it('refuses toolhost ui without a readable audit log', async () => {
    const run = await runCli(['ui', '--audit-log', 'missing.jsonl'], { cwd: ws.root });

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--audit-log: cannot read the audit log');
  });
});
