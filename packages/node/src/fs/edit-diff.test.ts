import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { applyEdits } from './apply-edits.js';
import { formatEditDiff } from './edit-diff.js';

const FILE = `${Array.from({ length: 2000 }, (_, index) => `line ${index}`).join('\n')}\n`;

function diffOf(
  original: string,
  edits: Parameters<typeof applyEdits>[1],
): { diff: string; text: string } {
  const applied = applyEdits(original, edits);
  return {
    diff: formatEditDiff('src/a.txt', original, applied.text, applied.regions),
    text: applied.text,
  };
}

describe('formatEditDiff', () => {
  it('gives one hunk per edit at its line numbers, with three lines of context', () => {
    const { diff } = diffOf(FILE, [{ oldText: 'line 100\n', newText: 'LINE 100\n' }]);

    expect(diff).toBe(
      [
        '--- a/src/a.txt',
        '+++ b/src/a.txt',
        '@@ -98,7 +98,7 @@',
        ' line 97',
        ' line 98',
        ' line 99',
        '-line 100',
        '+LINE 100',
        ' line 101',
        ' line 102',
        ' line 103',
        '',
      ].join('\n'),
    );
  });

  it.each([
    [
      'far-apart edits',
      [
        { oldText: 'line 5\n', newText: '' },
        { oldText: 'line 1500\n', newText: 'a\nb\nc\n' },
      ],
    ],
    [
      'neighbouring edits merged',
      [
        { oldText: 'line 50\n', newText: 'x\n' },
        { oldText: 'line 53\n', newText: '' },
      ],
    ],
    ['an edit of the first line', [{ oldText: 'line 0\n', newText: 'zero\n' }]],
    ['an edit of the last line', [{ oldText: 'line 1999\n', newText: 'end' }]],
    ['a replaceAll over the file', [{ oldText: '7\n', newText: 'seven\n', replaceAll: true }]],
    [
      'an edit of an earlier edit',
      [
        { oldText: 'line 9\n', newText: 'nine\nline 9b\n' },
        { oldText: 'nine\n', newText: '' },
      ],
    ],
  ])('is a patch that turns the original into the edited text: %s', (_case, edits) => {
    const { diff, text } = diffOf(FILE, edits);

    expect(applyPatch(FILE, diff)).toBe(text);
  });

  it('marks a last line without a newline', () => {
    const { diff, text } = diffOf('a\nb', [{ oldText: 'b', newText: 'c' }]);

    expect(diff).toContain('\\ No newline at end of file');
    expect(applyPatch('a\nb', diff)).toBe(text);
  });

  it('shows a window too large to line-diff whole, still as a valid patch', () => {
    const before = Array.from({ length: 6000 }, (_, index) => `a${index}`).join('\n');
    const after = Array.from({ length: 6000 }, (_, index) => `b${index}`).join('\n');
    const original = `head\n${before}\ntail\n`;

    const { diff, text } = diffOf(original, [{ oldText: before, newText: after }]);

    expect(applyPatch(original, diff)).toBe(text);
    expect(diff).not.toContain(' head');
  });

  it('is empty when the edits changed nothing', () => {
    expect(diffOf(FILE, [{ oldText: 'line 3\n', newText: 'line 3\n' }]).diff).toBe('');
  });
});
