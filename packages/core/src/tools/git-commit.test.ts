import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { ToolPolicyError } from '../errors.js';
import { gitCommitTool } from './git-commit.js';
import { GIT_NO_REPO_PROGRAMS } from './git-no-repo-programs.js';
import { CANARY, expectArgsRejected } from './test-support/expect-args.js';
import { EMPTY_HOST, onlyCall, stubHost, testContext } from './test-support/stub-host.js';

describe('git_commit', () => {
  it('accepts a message with pathspecs', () => {
    expect(gitCommitTool.parseArgs({ message: 'fix', files: ['a.ts'] })).toEqual({
      message: 'fix',
      files: ['a.ts'],
    });
  });

  it.each([
    ['a missing message', {}, 'message'],
    ['an empty message', { message: '' }, 'message'],
    [
      'a file starting with a dash',
      { message: 'm', files: ['ok', `--output=${CANARY}`] },
      'files.1',
    ],
    ['an empty file', { message: 'm', files: [''] }, 'files.0'],
    ['an unknown key', { message: 'm', amend: true }, 'amend'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(gitCommitTool, raw, field);
  });

  it('refuses with gate_required unless the gate approved, before any host call', async () => {
    const { host, calls } = stubHost();

    const attempt = gitCommitTool.dispatch(
      { message: 'm' },
      host,
      testContext({ gateApproved: false }),
    );

    await expect(attempt).rejects.toBeInstanceOf(ToolPolicyError);
    await expect(attempt).rejects.toMatchObject({ reason: 'gate_required', recoverable: false });
    expect(calls).toEqual([]);
  });

  it('spawns git commit -m <message> -- <files> and never stages', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;
    const ctx = testContext({ gateApproved: true, signal });

    await gitCommitTool.dispatch({ message: '-m trick', files: ['a.ts', 'b.ts'] }, host, ctx);

    expect(onlyCall(calls, 'process.spawn')).toEqual([
      'git',
      [
        ...GIT_NO_REPO_PROGRAMS,
        'commit',
        '--no-verify',
        '--no-gpg-sign',
        '-m',
        '-m trick',
        '--',
        'a.ts',
        'b.ts',
      ],
      {},
      {},
      signal,
    ]);
    expect(calls.map((call) => call.method)).toEqual(['process.spawn']);
  });

  it('ends the argv with -- even without files', async () => {
    const { host, calls } = stubHost();

    await gitCommitTool.dispatch({ message: 'm' }, host, testContext({ gateApproved: true }));

    expect(onlyCall(calls, 'process.spawn')[1]).toEqual([
      ...GIT_NO_REPO_PROGRAMS,
      'commit',
      '--no-verify',
      '--no-gpg-sign',
      '-m',
      'm',
      '--',
    ]);
  });

  it('returns the process outcome', async () => {
    const { host } = stubHost();

    const result = await gitCommitTool.dispatch(
      { message: 'm' },
      host,
      testContext({ gateApproved: true }),
    );

    expect(result).toEqual({ exitCode: 0, stdout: 'out', stderr: '', durationMs: 3 });
  });

  it('lets a host failure through unchanged (the registry keeps it non-recoverable)', async () => {
    const failure = new Error('index.lock exists');
    const { host } = stubHost({
      spawn: () => {
        throw failure;
      },
    });

    await expect(
      gitCommitTool.dispatch({ message: 'm' }, host, testContext({ gateApproved: true })),
    ).rejects.toBe(failure);
  });

  it('requires gate approval, spawns a process and has no allowlist target', () => {
    expect(gitCommitTool.policy).toEqual({
      fsScoped: false,
      spawnsProcess: true,
      requiresGateApproval: true,
      effect: { readOnly: false, destructive: false, idempotent: false },
    });
    expect(gitCommitTool.policyTarget).toBeUndefined();
    expect(approvalActionClass(gitCommitTool)).toBeUndefined();
  });

  it('fails with ToolUnavailableError naming process when the arm is absent', async () => {
    await expect(
      gitCommitTool.dispatch({ message: 'm' }, EMPTY_HOST, testContext({ gateApproved: true })),
    ).rejects.toMatchObject({ capability: 'process' });
  });
});
