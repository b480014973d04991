import { describe, expect, it } from 'vitest';
import { ToolArgsInvalidError } from '@toolhost/core';
import { applyEdits } from './apply-edits.js';

function refusal(run: () => unknown): ToolArgsInvalidError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolArgsInvalidError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('applyEdits', () => {
  it('replaces a unique occurrence and reports where the text changed', () => {
    const applied = applyEdits('one\ntwo\nthree\n', [{ oldText: 'two', newText: 'TWO!' }]);

    expect(applied).toEqual({
      text: 'one\nTWO!\nthree\n',
      replacements: 1,
      regions: [{ origStart: 4, origEnd: 7, newStart: 4, newEnd: 8 }],
    });
  });

  it('refuses a missing oldText naming the edit index, never its text', () => {
    const error = refusal(() =>
      applyEdits('abc', [
        { oldText: 'a', newText: 'A' },
        { oldText: 'SECRET-ZZZ', newText: 'x' },
      ]),
    );

    expect(error.message).toBe('tool edit_file args invalid: edits.1.oldText (not found)');
  });

  it('refuses an ambiguous oldText with its count', () => {
    const error = refusal(() =>
      applyEdits('x = 1; x = 1; x = 1;', [{ oldText: 'x = 1', newText: 'y' }]),
    );

    expect(error.issues).toEqual([{ field: 'edits.0.oldText', problem: 'found 3 times' }]);
  });

  it('counts overlapping occurrences as ambiguous', () => {
    const error = refusal(() => applyEdits('aaa', [{ oldText: 'aa', newText: 'b' }]));

    expect(error.issues[0]?.problem).toBe('found 2 times');
  });

  it('replaces every non-overlapping occurrence with replaceAll', () => {
    const applied = applyEdits('aaa-aaa', [{ oldText: 'aa', newText: 'b', replaceAll: true }]);

    expect(applied.text).toBe('ba-ba');
    expect(applied.replacements).toBe(2);
  });

  it('deletes with an empty newText', () => {
    const applied = applyEdits('keep\ndrop\nkeep2\n', [{ oldText: 'drop\n', newText: '' }]);

    expect(applied.text).toBe('keep\nkeep2\n');
    expect(applied.regions).toEqual([{ origStart: 5, origEnd: 10, newStart: 5, newEnd: 5 }]);
  });

  it('applies a later edit to the text the earlier ones made', () => {
    const applied = applyEdits('alpha beta', [
      { oldText: 'alpha', newText: 'gamma delta' },
      { oldText: 'delta beta', newText: 'omega' },
    ]);

    expect(applied.text).toBe('gamma omega');
    expect(applied.regions).toEqual([{ origStart: 0, origEnd: 10, newStart: 0, newEnd: 11 }]);
  });

  it('cannot match text an earlier edit removed', () => {
    const error = refusal(() =>
      applyEdits('alpha beta', [
        { oldText: 'alpha', newText: 'gamma' },
        { oldText: 'alpha', newText: 'again' },
      ]),
    );

    expect(error.issues[0]).toEqual({ field: 'edits.1.oldText', problem: 'not found' });
  });

  it('reports no region for edits that cancel out', () => {
    const applied = applyEdits('a b c', [
      { oldText: 'b', newText: 'X' },
      { oldText: 'X', newText: 'b' },
    ]);

    expect(applied.text).toBe('a b c');
    expect(applied.replacements).toBe(2);
  });

  it('matches a bare-LF edit in a CRLF file and writes CRLF', () => {
    const applied = applyEdits('one\r\ntwo\r\nthree\r\n', [
      { oldText: 'one\ntwo\n', newText: 'uno\ndos\n' },
      { oldText: 'three', newText: 'tres\ncuatro' },
    ]);

    expect(applied.text).toBe('uno\r\ndos\r\ntres\r\ncuatro\r\n');
  });

  it('keeps a bare-LF edit that only matches as sent in a mixed file', () => {
    const applied = applyEdits('a\r\nb\r\nc\nd\r\n', [{ oldText: 'c\nd', newText: 'C\nD' }]);

    expect(applied.text).toBe('a\r\nb\r\nC\nD\r\n');
  });

  it('puts back a final newline an edit removed, in the file line ending', () => {
    expect(applyEdits('a\nlast\n', [{ oldText: 'last\n', newText: 'end' }]).text).toBe('a\nend\n');
    expect(applyEdits('a\r\nlast\r\n', [{ oldText: 'last\r\n', newText: 'end' }]).text).toBe(
      'a\r\nend\r\n',
    );
  });

  it('adds no final newline to a file without one', () => {
    expect(applyEdits('a\nlast', [{ oldText: 'last', newText: 'end' }]).text).toBe('a\nend');
  });

  it('leaves a file the edits emptied empty', () => {
    expect(applyEdits('only\n', [{ oldText: 'only\n', newText: '' }]).text).toBe('');
  });
});
