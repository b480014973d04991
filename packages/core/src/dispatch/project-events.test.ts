import { describe, expect, it } from 'vitest';
import { projectEvents, projectToolInput, summarizeOutput } from './project-events.js';

describe('projectToolInput', () => {
  it('removes hidden keys and redacts string leaves', () => {
    const projected = projectToolInput(
      {
        command: 'curl -H "Authorization: Bearer abcDEF123456789"',
        cwd: '/secret/root',
        env: { X: 'y' },
      },
      new Set(['cwd', 'env']),
    );

    expect(projected).toEqual({ command: 'curl -H "Authorization: Bearer [redacted]"' });
  });

  it('marks an ancestor cycle and keeps a repeated sibling', () => {
    const shared = { name: 'twice' };
    const node: Record<string, unknown> = { a: shared, b: shared, list: [shared, shared] };
    node['self'] = node;

    const projected = projectToolInput({ node }, new Set());

    expect(projected).toEqual({
      node: {
        a: { name: 'twice' },
        b: { name: 'twice' },
        list: [{ name: 'twice' }, { name: 'twice' }],
        self: '[cyclic]',
      },
    });
  });

  it('clips long leaves after redacting them', () => {
    const projected = projectToolInput({ text: `${'a'.repeat(998)}😀tail` }, new Set()) as {
      text: string;
    };

    expect(projected.text.length).toBeLessThanOrEqual(1000);
    expect(projected.text.endsWith('\ud83d')).toBe(false);
  });

  it('keeps a __proto__ key as data', () => {
    const projected = projectToolInput(JSON.parse('{"__proto__": {"x": 1}}') as object, new Set());

    expect(Object.getOwnPropertyDescriptor(projected, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('describes binary, functions and big integers without their contents', () => {
    const projected = projectToolInput(
      { bytes: new Uint8Array(4), run: () => 1, big: 10n },
      new Set(),
    );

    expect(projected).toEqual({ bytes: '[binary 4 bytes]', run: '[function]', big: '10' });
  });
});

describe('summarizeOutput', () => {
  it('collapses whitespace, redacts and bounds to 500 characters', () => {
    const summary = summarizeOutput(
      `line one\n\n\tapi_key=FAKEkey1234567890\n${'word '.repeat(400)}`,
    );

    expect(summary.startsWith('line one api_key=[redacted] word')).toBe(true);
    expect(summary.length).toBeLessThanOrEqual(500);
  });

  it('redacts a PEM block split over lines before collapsing it', () => {
    const pem =
      '-----BEGIN PRIVATE KEY-----\nMIIEsecretLINE1\nsecretLINE2\n-----END PRIVATE KEY-----';

    const summary = summarizeOutput({ content: pem });

    expect(summary).not.toContain('secretLINE');
  });

  it('summarises undefined as empty text', () => {
    expect(summarizeOutput(undefined)).toBe('');
  });
});

describe('projectEvents', () => {
  it('serialises both projections through their getters', () => {
    const events = projectEvents({
      toolId: 't',
      args: { a: 1 },
      hiddenKeys: new Set(),
      modelResult: 'ok',
    });

    expect(JSON.parse(JSON.stringify(events))).toEqual({
      call: { toolId: 't', toolInput: { a: 1 } },
      result: { toolId: 't', success: true, outputSummary: 'ok' },
    });
  });
});
