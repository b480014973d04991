import { describe, expect, it } from 'vitest';
import { redactSecretShapedText } from '../redact/redact-secret-shaped-text.js';
import { MAX_CHANGE_PREVIEW_LENGTH, renderEditChange } from './edit-change-preview.js';

const identity = (text: string): string => text;

describe('renderEditChange', () => {
  it('shows each edit as numbered before and after lines', () => {
    const change = renderEditChange(
      [
        { oldText: 'a\nb', newText: 'c' },
        { oldText: 'x', newText: '', replaceAll: true },
      ],
      identity,
    );

    expect(change).toBe(
      [
        'edit 1 of 2:',
        '- a',
        '- b',
        '+ c',
        'edit 2 of 2 (every occurrence):',
        '- x',
        '(deleted: nothing replaces it)',
      ].join('\n'),
    );
  });

  it('shows CRLF text as plain lines and escapes other control characters', () => {
    const change = renderEditChange([{ oldText: 'a\r\nb', newText: '\u001b[2Jc\rd' }], identity);

    expect(change).toBe('edit 1 of 1:\n- a\n- b\n+ \\u001b[2Jc\\u000dd');
  });

  it('scrubs before it cuts, so no secret survives as a fragment at the cut', () => {
    // The cut falls 7 characters into the token: cut first, `AKIA123` would not look secret.
    const prefix = 'edit 1 of 1:\n- ';
    const cutAt = MAX_CHANGE_PREVIEW_LENGTH - '\n… (truncated)'.length;
    const oldText = `${'x'.repeat(cutAt - 8 - prefix.length)} AKIA1234567890ABCDEF tail`;

    const change = renderEditChange([{ oldText, newText: 'y' }], redactSecretShapedText);

    expect(change).not.toContain('AKIA');
    expect(change).toContain('[redact');
  });

  it('caps the change on a code-point boundary with a marker', () => {
    const emoji = '😀'.repeat(MAX_CHANGE_PREVIEW_LENGTH);

    const change = renderEditChange([{ oldText: emoji, newText: emoji }], identity);

    expect(change.length).toBeLessThanOrEqual(MAX_CHANGE_PREVIEW_LENGTH);
    expect(change.endsWith('\n… (truncated)')).toBe(true);
    expect(change).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('stops rendering edits once the cap is reached', () => {
    const edits = Array.from({ length: 100 }, () => ({ oldText: 'o'.repeat(3000), newText: 'n' }));

    const change = renderEditChange(edits, identity);

    expect(change).not.toContain('edit 3 of 100');
  });
});
