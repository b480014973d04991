import { describe, expect, it } from 'vitest';
import {
  ToolArgsInvalidError,
  ToolExecutionError,
  ToolPolicyError,
  UnknownToolError,
} from '../errors.js';
import {
  projectEvents,
  projectFailedResult,
  projectToolInput,
  summarizeOutput,
} from './project-events.js';

// A 4 KiB base64 run mixing every character class, and a short inline PNG.
const BLOB = 'Ab0+/Yz9'.repeat(512);
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

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

  it('keeps a nested __proto__ key as data, defined as Object.fromEntries would', () => {
    const projected = projectToolInput(
      JSON.parse('{"a": {"__proto__": {"x": 1}, "b": 2}}') as object,
      new Set(),
    ) as { a: object };

    expect(Object.getPrototypeOf(projected.a)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(projected.a, '__proto__')).toEqual({
      value: { x: 1 },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(JSON.stringify(projected)).toBe('{"a":{"__proto__":{"x":1},"b":2}}');
  });

  it('describes binary, functions and big integers without their contents', () => {
    const projected = projectToolInput(
      { bytes: new Uint8Array(4), run: () => 1, big: 10n },
      new Set(),
    );

    expect(projected).toEqual({ bytes: '[binary 4 bytes]', run: '[function]', big: '10' });
  });
});

describe('projectToolInput: inline media', () => {
  it.each([
    ['a data: URI', { content: `<img src="${PNG}">` }, 'iVBORw0KGgo'],
    ['a bare 4 KiB base64 run', { content: `blob ${BLOB}` }, BLOB.slice(0, 64)],
  ])('projects %s as a marker', (_case, args, media) => {
    const projected = JSON.stringify(projectToolInput(args, new Set()));

    expect(projected).not.toContain(media);
    expect(projected).toContain('[inline media removed:');
  });

  it.each([
    ['an ArrayBuffer', new ArrayBuffer(8), '[binary 8 bytes]'],
    ['a typed array', new Float64Array(2), '[binary 16 bytes]'],
    [
      'a { kind: "base64" } object',
      { kind: 'base64', data: 'iVBORw0KGgo=' },
      '[inline base64 media]',
    ],
  ])('projects %s as a marker', (_case, media, marker) => {
    const projected = projectToolInput({ media }, new Set());

    expect(projected).toEqual({ media: marker });
  });

  it('keeps hashes, ids and short tokens', () => {
    const args = {
      sha: '3f786850e387550fdab836ed7e6dc881de23001b',
      id: '123e4567-e89b-12d3-a456-426614174000',
      handle: `media://sha256-${'ab'.repeat(32)}`,
      kind: 'text',
    };

    expect(projectToolInput(args, new Set())).toEqual(args);
  });
});

describe('summarizeOutput: inline media', () => {
  it('summarises a data: URI as a marker', () => {
    const summary = summarizeOutput(`see ${PNG} here`);

    expect(summary).not.toContain('iVBORw0KGgo');
    expect(summary).toContain('[inline media removed:');
  });

  it('summarises binary and base64 objects without their contents', () => {
    const summary = summarizeOutput({
      bytes: new Uint8Array([1, 2, 3]),
      image: { kind: 'base64', data: 'iVBORw0KGgo=' },
    });

    expect(summary).not.toContain('"0":1');
    expect(summary).not.toContain('iVBORw0KGgo');
    expect(summary).toContain('[inline binary removed: 3 bytes;');
  });
});

describe('projectFailedResult', () => {
  it('projects a fed-back failure as success: false with its message as the summary', () => {
    const error = new ToolArgsInvalidError('read_file', ['path']);

    expect(projectFailedResult(error)).toEqual({
      toolId: 'read_file',
      success: false,
      outputSummary: error.message,
    });
  });

  it('names no tool for an unknown one, nor echoes the name the model chose', () => {
    const error = new UnknownToolError('made_up', ['read_file']);

    expect(projectFailedResult(error)).toEqual({
      toolId: '(unknown tool)',
      success: false,
      outputSummary: 'unknown tool',
    });
  });

  it('keeps the tool-reported detail out and the summary one redacted line', () => {
    const error = new ToolExecutionError('mcp_db', 'tool_error', {
      correctable: true,
      detail: 'password=hunter2secret\nstack at /srv/app',
    });
    const policy = new ToolPolicyError('read_file', 'scope_escape');

    const failed = projectFailedResult(error);

    expect(failed.outputSummary).toBe(error.message);
    expect(failed.outputSummary).not.toContain('hunter2');
    expect(projectFailedResult(policy).outputSummary).toBe(policy.message);
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
      mediaChecked: true,
    });

    expect(JSON.parse(JSON.stringify(events))).toEqual({
      call: { toolId: 't', toolInput: { a: 1 } },
      result: { toolId: 't', success: true, outputSummary: 'ok' },
    });
  });

  it('walks a result bounding did not check (a replayed record) for inline media again', () => {
    const events = projectEvents({
      toolId: 't',
      args: {},
      hiddenKeys: new Set(),
      modelResult: { image: new Uint8Array(8), media: { kind: 'base64', data: 'AAAA' } },
      mediaChecked: false,
    });

    expect(events.result.outputSummary).toContain('[inline binary removed: 8 bytes;');
    expect(events.result.outputSummary).not.toContain('AAAA');
  });
});
