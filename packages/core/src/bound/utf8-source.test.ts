import { describe, expect, it } from 'vitest';
import type { SpillPart, ToolOutputStore } from '../tool-host.js';
import { boundForModel } from './bound-for-model.js';
import { joinRendering, planRendering } from './render-for-model.js';
import { attachUtf8Source, copyUtf8Source, spillPartOf, takeUtf8Source } from './utf8-source.js';

const text = 'a\n'.repeat(100);
const bytes = new TextEncoder().encode(text);
const held = () => bytes;

describe('utf8 source', () => {
  it('is invisible to JSON, keys and spreads', () => {
    const result = attachUtf8Source({ content: text }, { text, bytes: held });
    expect(Object.keys(result)).toEqual(['content']);
    expect(JSON.stringify(result)).toBe(JSON.stringify({ content: text }));
    expect(takeUtf8Source({ ...result })).toBeUndefined();
  });

  it('is handed over once: the result no longer holds the bytes after it', () => {
    const result = copyUtf8Source(attachUtf8Source({}, { text, bytes: held }), { content: text });
    expect(takeUtf8Source(result)?.bytes()).toBe(bytes);
    expect(takeUtf8Source(result)).toBeUndefined();
  });

  it('stands in only for the very text it encodes', () => {
    expect(spillPartOf(text, { text, bytes: held })).toBe(bytes);
    expect(spillPartOf(`${text}b`, { text, bytes: held })).toBe(`${text}b`);
    expect(spillPartOf(text, { text, bytes: () => bytes.subarray(1) })).toBe(text);
    expect(spillPartOf(text, { text, bytes: () => undefined })).toBe(text);
  });
});

describe('boundForModel over a store with spillParts', () => {
  it('hands over the pieces of the rendering, the source bytes for the body', async () => {
    const seen: SpillPart[][] = [];
    const store: ToolOutputStore = {
      spill: () => Promise.reject(new Error('joined')),
      spillParts: (parts) => {
        seen.push([...parts]);
        return Promise.resolve({ ref: 'r', byteLength: 1 });
      },
    };
    const value = { content: text, stdout: 'x'.repeat(300), size: 3 };
    const expected = joinRendering(planRendering(value) ?? { head: '', sections: [] });
    attachUtf8Source(value, { text, bytes: held });

    const bounded = await boundForModel(value, { store, limits: { maxBytes: 64, maxLines: 5 } });

    expect(bounded.spill).toEqual({ ref: 'r', byteLength: 1 });
    const parts = seen[0] ?? [];
    expect(parts[1]).toBe(bytes);
    const decoded = parts.map((part) =>
      typeof part === 'string' ? part : new TextDecoder().decode(part),
    );
    expect(decoded.join('')).toBe(expected);
  });

  it('still spills through a store that only has spill(text)', async () => {
    const texts: string[] = [];
    const store: ToolOutputStore = {
      spill: (joined) => {
        texts.push(joined);
        return Promise.resolve({ ref: 'r', byteLength: joined.length });
      },
    };
    const value = attachUtf8Source({ content: text }, { text, bytes: held });

    const bounded = await boundForModel(value, { store, limits: { maxBytes: 64, maxLines: 5 } });

    expect(bounded.spill?.ref).toBe('r');
    expect(texts).toEqual([
      joinRendering(planRendering({ content: text }) ?? { head: '', sections: [] }),
    ]);
  });
});
