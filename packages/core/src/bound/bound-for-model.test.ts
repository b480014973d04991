import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { ToolResultLimits } from '../dispatch-context.js';
import { boundForModel } from './bound-for-model.js';
import { DEFAULT_TOOL_RESULT_LIMITS } from './default-tool-result-limits.js';
import { toModelText } from './to-model-text.js';
import { utf8ByteLength } from './utf8.js';

const small: ToolResultLimits = { maxBytes: 400, maxLines: 20 };
const store = (ref = '/run/spill-1.txt') => ({
  spill: vi.fn(async (text: string) => ({ ref, byteLength: utf8ByteLength(text) })),
});

describe('boundForModel', () => {
  it('uses 50 KiB / 2000 lines by default', () => {
    expect(DEFAULT_TOOL_RESULT_LIMITS).toEqual({ maxBytes: 51_200, maxLines: 2000 });
  });

  it.each<[string, unknown]>([
    ['a short string', 'hello'],
    ['an object', { content: 'hi', sizeBytes: 2 }],
    ['an array', [1, 2, 3]],
    ['null', null],
    ['undefined', undefined],
    ['a number', 7],
    ['a string exactly at the byte limit', 'a'.repeat(400)],
    ['a string exactly at the line limit', 'x\n'.repeat(19) + 'x'],
    ['an object whose estimate is high but whose JSON fits', { text: '\u00e9'.repeat(100) }],
  ])('returns %s itself when it fits', async (_case, value) => {
    const bounded = await boundForModel(value, { limits: small });

    expect(bounded).toEqual({ result: value, truncated: false });
    expect(bounded.result).toBe(value);
  });

  it('spills an over-ceiling string and shows head, marker and tail', async () => {
    const text = `HEAD${'m'.repeat(2000)}TAIL`;
    const outputStore = store();

    const bounded = await boundForModel(text, { limits: small, store: outputStore });

    const result = bounded.result as string;
    expect(bounded.truncated).toBe(true);
    expect(bounded.spill).toEqual({ ref: '/run/spill-1.txt', byteLength: 2008 });
    expect(outputStore.spill).toHaveBeenCalledWith(text, small, undefined);
    expect(result.startsWith('HEAD')).toBe(true);
    expect(result.endsWith('TAIL')).toBe(true);
    expect(result).toContain(
      '[… truncated: 2008 bytes / 1 lines; full output at /run/spill-1.txt (page it with read_file offset/limit) …]',
    );
    expect(utf8ByteLength(result)).toBeLessThanOrEqual(small.maxBytes);
  });

  it('splits the preview about 70% head and 30% tail', async () => {
    const text = 'a'.repeat(5000) + 'b'.repeat(5000);

    const bounded = await boundForModel(text, { limits: { maxBytes: 1000, maxLines: 2000 } });

    const [head = '', tail = ''] = (bounded.result as string).split(/\n\[….*…\]\n/);
    expect(head.length / (head.length + tail.length)).toBeCloseTo(0.7, 1);
  });

  it('bounds by lines too', async () => {
    const text = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n');

    const bounded = await boundForModel(text, { limits: { maxBytes: 51_200, maxLines: 11 } });

    const lines = (bounded.result as string).split('\n');
    expect(lines.length).toBeLessThanOrEqual(11);
    expect(lines[0]).toBe('line 0');
    expect(lines.at(-1)).toBe('line 99');
    expect(bounded.result).toContain('100 lines');
  });

  it('previews an over-ceiling object with its bulk text raw, so the spill pages by line', async () => {
    const stdout = Array.from({ length: 100 }, (_, index) => `out ${index}`).join('\n');

    const outputStore = store();

    const bounded = await boundForModel(
      { exitCode: 0, stdout },
      { limits: small, store: outputStore },
    );

    const preview = bounded.result as string;
    expect(preview.startsWith('{\n  "exitCode": 0\n}\n===== stdout =====\nout 0\nout 1\n')).toBe(
      true,
    );
    expect(preview).toContain('out 99');
    const spilled = outputStore.spill.mock.calls.at(-1)?.[0] ?? '';
    expect(spilled.split('\n')).toHaveLength(1 + 3 + 100);
    expect(preview).toContain(`/ ${1 + 3 + 100} lines;`);
  });

  it('counts the lines of a rendering with several sections exactly', async () => {
    const outputStore = store();
    const stdout = 'o\n'.repeat(150);
    const stderr = 'e\n'.repeat(40).slice(0, -1);

    const bounded = await boundForModel(
      { exitCode: 1, stdout, stderr },
      { limits: small, store: outputStore },
    );

    const spilled = outputStore.spill.mock.calls.at(-1)?.[0] ?? '';
    expect(bounded.result).toContain(`/ ${spilled.split('\n').length} lines;`);
  });

  it('previews an over-ceiling array as indented JSON', async () => {
    const bounded = await boundForModel(
      Array.from({ length: 100 }, (_, index) => ({ name: `entry-${index}` })),
      { limits: small },
    );

    expect((bounded.result as string).startsWith('[\n  {\n    "name": "entry-0"')).toBe(true);
    expect(bounded.result).toContain('full output unavailable (no_output_store)');
  });

  it('keeps an object whose compact JSON fits even when its indented rendering would not', async () => {
    const value = { entries: Array.from({ length: 220 }, (_, index) => ({ n: index, t: 'ab' })) };

    const bounded = await boundForModel(value, { limits: { maxBytes: 4096, maxLines: 20 } });

    // Indentation alone more than doubles it: no fixed slack over the rendering is a safe bound.
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(4096);
    expect(JSON.stringify(value, null, 2).length).toBeGreaterThan(2 * 4096 + 1024);
    expect(bounded).toEqual({ result: value, truncated: false });
  });

  it('bounds an object with bulk text by its rendering, lines included, since that is what the model reads', async () => {
    const value = { text: 'a\n'.repeat(100) };

    const bounded = await boundForModel(value, { limits: small });

    // Its compact JSON is one 300-byte line; the model is shown 103 lines.
    expect(JSON.stringify(value).length).toBeLessThan(small.maxBytes);
    expect(bounded.truncated).toBe(true);
    expect((bounded.result as string).split('\n').length).toBeLessThanOrEqual(small.maxLines);
    expect(bounded.result).toContain('/ 103 lines;');
  });

  it('fits exactly when the text the model is shown fits, whatever the result', async () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '\n', 'é', '😀', '"', '='),
      maxLength: 400,
    });
    const result = fc.oneof(
      text,
      fc.record({ exitCode: fc.integer(), stdout: text, stderr: text }),
      fc.record({ path: fc.string({ maxLength: 20 }), content: text, totalLines: fc.nat() }),
      fc.array(fc.record({ name: fc.string({ maxLength: 30 }) }), { maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(
        result,
        fc.integer({ min: 1, max: 900 }),
        fc.integer({ min: 1, max: 60 }),
        async (value, maxBytes, maxLines) => {
          const bounded = await boundForModel(value, { limits: { maxBytes, maxLines } });

          const shown = toModelText(value);
          const fits =
            utf8ByteLength(shown) <= maxBytes &&
            (showsLines(value) ? shown.split('\n').length <= maxLines : true);
          expect(bounded.truncated).toBe(!fits);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('fits at exactly the size of the text shown, and not one byte or line less', async () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '\n', 'é', '😀', '"'),
      maxLength: 300,
      size: 'large',
    });
    const result = fc.oneof(
      text.map((t) => `x\n${t}`),
      fc.record({ exitCode: fc.integer(), stdout: text.map((t) => `${t}\n`), stderr: text }),
      fc.record({ path: fc.constant('a.txt'), content: text.map((t) => 'c'.repeat(257) + t) }),
    );
    await fc.assert(
      fc.asyncProperty(result, async (value) => {
        const shown = toModelText(value);
        const maxBytes = utf8ByteLength(shown);
        const maxLines = shown.split('\n').length;

        expect((await boundForModel(value, { limits: { maxBytes, maxLines } })).truncated).toBe(
          false,
        );
        const fewerBytes = { maxBytes: maxBytes - 1, maxLines };
        expect((await boundForModel(value, { limits: fewerBytes })).truncated).toBe(true);
        const fewerLines = { maxBytes, maxLines: maxLines - 1 };
        expect((await boundForModel(value, { limits: fewerLines })).truncated).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('previews a long rendering from its two ends exactly as from the whole text', async () => {
    // Mostly long lines, so the byte budget, not the line budget, decides where the cuts fall.
    const unit = fc.constantFrom('a', 'a', 'a', 'a', 'a', 'a', 'é', '😀', '\n');
    const text = fc.string({ unit, maxLength: 3000, size: 'max' });
    await fc.assert(
      fc.asyncProperty(
        // A leading newline makes stdout bulk text, so the object is shown as a rendering.
        fc.record({ exitCode: fc.integer(), stdout: text.map((t) => `\n${t}`), stderr: text }),
        fc.integer({ min: 60, max: 700 }),
        fc.integer({ min: 2, max: 400 }),
        async (value, maxBytes, maxLines) => {
          const limits = { maxBytes, maxLines };
          const shown = toModelText(value);
          // The same text as a string is previewed from the whole of it.
          const [fromRendering, fromWhole] = await Promise.all([
            boundForModel(value, { limits }),
            boundForModel(shown, { limits }),
          ]);

          expect(fromRendering.truncated).toBe(fromWhole.truncated);
          if (fromRendering.truncated) expect(fromRendering).toEqual(fromWhole);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('degrades to a preview when the spill fails', async () => {
    const failing = { spill: vi.fn(async () => Promise.reject(new Error('ENOSPC /tmp/secret'))) };

    const bounded = await boundForModel('q'.repeat(1000), { limits: small, store: failing });

    expect(bounded.truncated).toBe(true);
    expect(bounded.spill).toBeUndefined();
    expect(bounded.result).toContain('full output unavailable (spill_failed)');
    expect(bounded.result).not.toContain('ENOSPC');
  });

  it('gives a fixed note for an unserialisable object instead of throwing', async () => {
    const cyclic: Record<string, unknown> = { big: 'x'.repeat(1000) };
    cyclic['self'] = cyclic;

    const bounded = await boundForModel(cyclic, { limits: small });

    expect(bounded.result).toContain('[unserializable result]');
  });

  it('returns only the marker when the limits leave no room for a preview', async () => {
    const bounded = await boundForModel('w'.repeat(1000), {
      limits: { maxBytes: 10, maxLines: 5 },
    });

    expect(bounded.result).toBe(
      '[… truncated: 1000 bytes / 1 lines; full output unavailable (no_output_store) …]',
    );
  });

  it('never splits a code point, whatever the text and limits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({
          unit: fc.constantFrom('a', '\n', 'é', '中', '😀', '\u{1F600}\u{1F3FD}'),
          minLength: 0,
          maxLength: 600,
        }),
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: 1, max: 50 }),
        async (text, maxBytes, maxLines) => {
          const bounded = await boundForModel(text, { limits: { maxBytes, maxLines } });

          const result = bounded.result as string;
          expect(isWellFormed(result)).toBe(true);
          if (bounded.truncated && result.startsWith('[…') === false) {
            expect(utf8ByteLength(result)).toBeLessThanOrEqual(maxBytes);
            expect(result.split('\n').length).toBeLessThanOrEqual(maxLines);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

// No lone surrogate anywhere (String.prototype.isWellFormed is ES2024, past our lib).
function isWellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

// Compact JSON is one line: only a string or a rendering (an object shown with raw sections) is
// bounded by lines.
function showsLines(value: unknown): boolean {
  return typeof value === 'string' || toModelText(value) !== JSON.stringify(value);
}

describe('boundForModel: the inline-media backstop', () => {
  it('replaces a base64 blob before bounding, so the text around it is not cut', async () => {
    const blob = 'Zm9vYmFy+/09AbCd'.repeat(8192);
    const spill = store();

    const bounded = await boundForModel(`head\n${blob}\ntail`, { store: spill });

    expect(bounded).toEqual({
      result: `head\n[inline media removed: ${blob.length} chars; media goes through the media store as a media:// handle]\ntail`,
      truncated: false,
    });
    expect(spill.spill).not.toHaveBeenCalled();
  });
});
