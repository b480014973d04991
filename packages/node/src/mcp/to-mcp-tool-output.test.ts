import { describe, expect, it } from 'vitest';
import { MAX_ERROR_DETAIL_CHARS, toMcpErrorDetail, toMcpToolOutput } from './to-mcp-tool-output.js';

describe('toMcpToolOutput', () => {
  it('joins text blocks and marks binary ones instead of inlining them', () => {
    const output = toMcpToolOutput({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' } as never,
        { type: 'text', text: 'second' },
      ],
    });

    expect(output).toBe('first\n[image omitted: image/png]\nsecond');
  });

  it('returns the structured content when there is no text', () => {
    expect(toMcpToolOutput({ content: [], structuredContent: { ok: true } })).toEqual({ ok: true });
  });
});

describe('toMcpErrorDetail', () => {
  it('redacts a secret the server echoed', () => {
    const detail = toMcpErrorDetail({
      content: [{ type: 'text', text: 'bad key aws_access_key_id = AKIAIOSFODNN7EXAMPLE' }],
    });

    expect(detail).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('bounds a long error text', () => {
    const detail = toMcpErrorDetail({ content: [{ type: 'text', text: 'e'.repeat(50_000) }] });

    expect(detail.length).toBeLessThan(MAX_ERROR_DETAIL_CHARS + 20);
    expect(detail).toMatch(/\[truncated\]$/);
  });
});
