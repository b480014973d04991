import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '../bound/utf8.js';
import { redactText } from '../redact/redact-text.js';
import { MAX_PREVIEW_CONTENT_BYTES, previewContent, SCRUB_LOOKAHEAD } from './content-preview.js';

const TOKEN = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A';

describe('previewContent', () => {
  it('shows a short text whole, scrubbed, with its byte count', () => {
    const text = `token=${TOKEN}\nhé`;

    expect(previewContent(text, redactText)).toEqual({
      byteCount: utf8ByteLength(text),
      content: 'token=[redacted]\nhé',
      contentTruncated: false,
    });
  });

  it('cuts a long text at the cap on a code-point boundary and says so', () => {
    const text = '😀'.repeat(MAX_PREVIEW_CONTENT_BYTES);

    const preview = previewContent(text, redactText);

    expect(preview.contentTruncated).toBe(true);
    expect(preview.byteCount).toBe(4 * MAX_PREVIEW_CONTENT_BYTES);
    expect(utf8ByteLength(preview.content)).toBe(MAX_PREVIEW_CONTENT_BYTES);
    expect(preview.content).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it.each([10, 20, 30, 39])(
    'scrubs before it cuts: a token the cut splits %i characters in shows no fragment',
    (into) => {
      const text = 'x'.repeat(MAX_PREVIEW_CONTENT_BYTES - into) + ` ${TOKEN} ${'y'.repeat(99)}`;

      const { content, contentTruncated } = previewContent(text, redactText);

      expect(contentTruncated).toBe(true);
      expect(content).not.toContain('ghp_');
      expect(content).not.toContain(TOKEN.slice(4, 12));
      // The cut never leaves half a marker either.
      expect(content.replaceAll('[redacted]', '')).not.toContain('[');
    },
  );

  it('scrubs past its read-ahead window when the scrubber shrinks the window under the cap', () => {
    // A scrubber that collapses key material: the window's text shrinks under the cap, and the
    // token the window's end splits must not be shown as the fragment the window left.
    const scrub = (text: string): string => redactText(text.replace(/A{1000,}/g, '[redacted]'));
    const window = MAX_PREVIEW_CONTENT_BYTES + SCRUB_LOOKAHEAD;
    const text = 'A'.repeat(window - 10) + `${TOKEN} tail`;

    const { content, contentTruncated } = previewContent(text, scrub);

    expect(content).toBe('[redacted][redacted] tail');
    expect(contentTruncated).toBe(false);
  });

  it('escapes control characters but keeps lines and tabs', () => {
    const { content } = previewContent('a\r\n\tb\u001b[2Jc', redactText);

    expect(content).toBe('a\n\tb\\u001b[2Jc');
  });
});
