import { describe, expect, it } from 'vitest';
import { ToolExecutionError, ToolPolicyError } from '@toolhost/core';
import { toFsError } from './fs-error.js';

function systemError(code: string): Error {
  return Object.assign(new Error(`${code}: no such file, open '/home/u/secret/path'`), { code });
}

describe('toFsError', () => {
  it.each([
    ['ENOENT', 'not_found'],
    ['EISDIR', 'is_directory'],
    ['ENOTDIR', 'not_a_directory'],
    ['EEXIST', 'exists'],
    ['EACCES', 'permission_denied'],
    ['EFBIG', 'too_large'],
    ['EIO', 'io_error'],
  ])('maps %s to %s with the Node error on cause only', (code, reason) => {
    const cause = systemError(code);

    const error = toFsError('read_file', cause, false);

    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({
      reason,
      recoverable: true,
      cause,
      message: `tool read_file failed: ${reason}`,
    });
  });

  it('maps ELOOP to a fatal symlink refusal', () => {
    const error = toFsError('write_file', systemError('ELOOP'), true);

    expect(error).toBeInstanceOf(ToolPolicyError);
    expect(error).toMatchObject({ reason: 'symlink_refused', recoverable: false });
  });

  it('makes a failed write not recoverable', () => {
    expect(toFsError('write_file', systemError('ENOSPC'), true)).toMatchObject({
      reason: 'no_space',
      recoverable: false,
    });
  });

  it('passes a dispatch error through', () => {
    const denial = new ToolPolicyError('read_file', 'protected_path');

    expect(toFsError('read_file', denial, false)).toBe(denial);
  });
});
