import { describe, expect, it } from 'vitest';
import { approvalActionClass } from '../loop/approval-action-class.js';
import { GIT_NO_REPO_PROGRAMS } from './git-no-repo-programs.js';
import { gitStatusTool } from './git-status.js';
import { expectArgsRejected } from './test-support/expect-args.js';
import {
  effectiveArgs,
  EMPTY_HOST,
  onlyCall,
  stubHost,
  testContext,
} from './test-support/stub-host.js';

describe('git_status', () => {
  it('defaults the subcommand to status', () => {
    expect(gitStatusTool.parseArgs({})).toEqual({ command: 'status' });
  });

  it.each(['status', 'log', 'diff'])('accepts the %s subcommand', (command) => {
    expect(gitStatusTool.parseArgs({ command })).toEqual({ command });
  });

  it.each([
    ['a write subcommand', { command: 'push' }, 'command'],
    ['a flag as the subcommand', { command: '--output=/tmp/x' }, 'command'],
    ['an unknown key', { command: 'log', path: '.' }, 'path'],
  ])('rejects %s, naming the field', (_case, raw, field) => {
    expectArgsRejected(gitStatusTool, raw, field);
  });

  it('hides args from the model, so no flag is model-chosen', () => {
    expect(gitStatusTool.configOnlyParams).toEqual(['args']);
    expect(Object.keys(gitStatusTool.llmVisibleParams['properties'] as object)).toEqual([
      'command',
    ]);
  });

  it('ignores args a model supplies and keeps the configured ones', () => {
    const args = effectiveArgs(
      gitStatusTool,
      { command: 'diff', args: ['--ext-diff'] },
      { args: ['--stat'] },
    );

    expect(args).toEqual({ command: 'diff', args: ['--stat'] });
  });

  it('spawns git with the subcommand then the configured flags, no env, and the signal', async () => {
    const { host, calls } = stubHost();
    const signal = new AbortController().signal;

    await gitStatusTool.dispatch(
      { command: 'log', args: ['-n', '5'] },
      host,
      testContext({ signal }),
    );

    expect(onlyCall(calls, 'process.spawn')).toEqual([
      'git',
      [
        ...GIT_NO_REPO_PROGRAMS,
        '--no-optional-locks',
        'log',
        '--no-ext-diff',
        '--no-textconv',
        '-n',
        '5',
      ],
      {},
      {},
      signal,
    ]);
  });

  it('forwards the host call options in the spawn options', async () => {
    const { host, calls } = stubHost();
    const hostCallOptions = {};

    await gitStatusTool.dispatch({ command: 'status' }, host, testContext({ hostCallOptions }));

    expect(onlyCall(calls, 'process.spawn')[3]).toEqual({ hostCallOptions });
  });

  it('returns the process outcome', async () => {
    const { host } = stubHost();

    const result = await gitStatusTool.dispatch({ command: 'status' }, host, testContext());

    expect(result).toEqual({ exitCode: 0, stdout: 'out', stderr: '', durationMs: 3 });
  });

  it('spawns a process with no policy target, so it is pre-approved, not governed and not journaled', () => {
    expect(gitStatusTool.policy).toEqual({
      fsScoped: false,
      spawnsProcess: true,
      requiresGateApproval: false,
      journal: 'none',
      effect: { readOnly: true, destructive: false, idempotent: true },
    });
    expect(gitStatusTool.policyTarget).toBeUndefined();
    expect(approvalActionClass(gitStatusTool)).toBeUndefined();
  });

  it('fails with ToolUnavailableError naming process when the arm is absent', async () => {
    await expect(
      gitStatusTool.dispatch({ command: 'status' }, EMPTY_HOST, testContext()),
    ).rejects.toMatchObject({
      capability: 'process',
    });
  });
});
