import { describe, expect, it } from 'vitest';
import { editDistance, suggestToolId } from './suggest-tool-id.js';

const IDS = ['git_status', 'list_directory', 'read_file', 'run_command', 'write_file'];

describe('suggestToolId', () => {
  it.each([
    ['read_fil', 'read_file'],
    ['raed_file', 'read_file'],
    ['Read_File', 'read_file'],
    ['write_flie', 'write_file'],
    ['git_stauts', 'git_status'],
  ])('suggests %s → %s', (typed, expected) => {
    expect(suggestToolId(typed, IDS)).toBe(expected);
  });

  it.each(['delete_everything', 'ls', 'rm', 'http_request', ''])(
    'suggests nothing for %j, which is no near miss',
    (typed) => {
      expect(suggestToolId(typed, IDS)).toBeUndefined();
    },
  );

  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
