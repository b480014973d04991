import { describe, expect, it } from 'vitest';
import { readWindowNote } from './read-window-note.js';

describe('readWindowNote', () => {
  it('names the remaining count and the next offset from the result and the call', () => {
    expect(
      readWindowNote(
        'read_file',
        { path: 'a', offset: 10, limit: 5 },
        { more: true, totalLines: 40 },
      ),
    ).toBe('toolhost: 25 more lines follow (of 40): pass "offset": 15 to continue');
  });

  it('leaves the count out when the host did not count the whole file', () => {
    expect(readWindowNote('read_file', { path: 'a', limit: 5 }, { more: true })).toBe(
      'toolhost: more lines follow: pass "offset": 5 to continue',
    );
  });

  it('says nothing for a window that reached the end, or another tool', () => {
    expect(readWindowNote('read_file', { path: 'a', limit: 5 }, { more: false })).toBeUndefined();
    expect(readWindowNote('list_directory', { limit: 5 }, { more: true })).toBeUndefined();
  });
});
