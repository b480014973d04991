import { describe, expect, it } from 'vitest';
import type { AnyToolDef } from '../tool-def.js';
import { gitCommitTool } from '../tools/git-commit.js';
import { gitStatusTool } from '../tools/git-status.js';
import { httpRequestTool } from '../tools/http-request.js';
import { listDirectoryTool } from '../tools/list-directory.js';
import { notifyTool } from '../tools/notify.js';
import { readFileTool } from '../tools/read-file.js';
import { runCommandTool } from '../tools/run-command.js';
import { writeFileTool } from '../tools/write-file.js';
import { isJournaledTool } from './is-journaled-tool.js';

describe('isJournaledTool', () => {
  it.each<[string, AnyToolDef, boolean]>([
    ['write_file', writeFileTool, true],
    ['run_command', runCommandTool, true],
    ['git_commit', gitCommitTool, true],
    ['http_request', httpRequestTool, true],
    ['notify', notifyTool, true],
    ['read_file', readFileTool, false],
    ['list_directory', listDirectoryTool, false],
    ['git_status (declares none)', gitStatusTool, false],
  ])('%s journaled: %s', (_id, tool, expected) => {
    expect(isJournaledTool(tool)).toBe(expected);
  });

  it('lets policy.journal override the flags both ways, and journals an unknown value', () => {
    const read = { fsScoped: true, spawnsProcess: false, requiresGateApproval: false };
    const withPolicy = (policy: object) => ({ policy: { ...read, ...policy } }) as AnyToolDef;

    expect(isJournaledTool(withPolicy({ journal: 'effect' }))).toBe(true);
    expect(isJournaledTool(withPolicy({ fsWrite: true, journal: 'none' }))).toBe(false);
    expect(isJournaledTool(withPolicy({ journal: 'maybe' }))).toBe(true);
  });
});
