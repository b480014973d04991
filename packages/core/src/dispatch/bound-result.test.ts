import { describe, expect, it } from 'vitest';
import { createToolRegistry } from '../registry.js';
import type { ToolOutputStore } from '../tool-host.js';
import { unwrapUntrusted } from '../untrusted.js';
import { DEFAULT_TOOL_RESULT_LIMITS } from '../bound/default-tool-result-limits.js';
import { boundResult } from './bound-result.js';
import { stubContext, stubTool } from './test-support/stub-tools.js';

// 96 KiB of base64 mixing every character class: past the 50 KiB ceiling on its own.
const IMAGE = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAA+/9z'.repeat(3500)}`;
const BLOB = 'Ab0+/Yz9'.repeat(512);

describe('boundResult: the inline-media backstop', () => {
  it.each([
    ['a data: URI', { path: 'logo.png', preview: IMAGE }],
    ['a bare 4 KiB base64 run', { stdout: `encoded: ${BLOB}\n` }],
    ['raw bytes', { bytes: new Uint8Array(4096) }],
    ['a { kind: "base64" } object', { image: { kind: 'base64', data: 'iVBORw0KGgo=' } }],
  ])('never hands %s to the model', (_case, result) => {
    const bounded = boundResult(result, undefined, DEFAULT_TOOL_RESULT_LIMITS);

    const text = JSON.stringify(bounded instanceof Promise ? undefined : bounded.result);
    expect(text).not.toMatch(/iVBORw0KGgo|Ab0\+\/Yz9Ab0|"0":0/);
    expect(text).toContain('media goes through the media store');
  });

  it('replaces the media before bounding, so the rest fits and nothing is spilled', async () => {
    const spilled: string[] = [];
    const store: ToolOutputStore = {
      spill: async (text) => {
        spilled.push(text);
        return { ref: '/spill/1', byteLength: text.length };
      },
    };

    const bounded = await boundResult(
      { path: 'logo.png', preview: IMAGE },
      store,
      DEFAULT_TOOL_RESULT_LIMITS,
    );

    expect(bounded.truncated).toBe(false);
    expect(spilled).toEqual([]);
    expect(bounded.result).toEqual({
      path: 'logo.png',
      preview: `[inline media removed: ${IMAGE.length} chars; media goes through the media store as a media:// handle]`,
    });
  });

  it('returns a clean result itself, synchronously', () => {
    const result = { content: 'const sha = "3f786850e387550fdab836ed7e6dc881de23001b";' };

    const bounded = boundResult(result, undefined, DEFAULT_TOOL_RESULT_LIMITS);

    expect(bounded).toEqual({ result, truncated: false });
    expect((bounded as { result: unknown }).result).toBe(result);
  });
});

describe('dispatch: inline media in a tool result', () => {
  it('reaches neither the model nor the event summary, while output keeps the full value', async () => {
    const full = { name: 'shot.png', preview: IMAGE };
    const { tool } = stubTool({ run: async () => full });
    const registry = createToolRegistry({ tools: [tool], host: {} });

    const outcome = await registry.dispatch(
      { id: 'c1', name: 'stub', args: { text: IMAGE.slice(0, 200) } },
      stubContext(['stub']),
    );

    const { result } = unwrapUntrusted(outcome.toolResult);
    expect(JSON.stringify(result)).not.toContain('iVBORw0KGgo');
    expect(outcome.output).toBe(full);
    expect(outcome.events.result.outputSummary).toContain('[inline media removed:');
    expect(JSON.stringify(outcome.events.call.toolInput)).not.toContain('iVBORw0KGgo');
  });
});
