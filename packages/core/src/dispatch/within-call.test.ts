import { describe, expect, it } from 'vitest';
import { createToolRegistry } from '../registry.js';
import type { ToolOutputStore } from '../tool-host.js';
import { stubContext, stubTool } from './test-support/stub-tools.js';

describe('one call scope around the host work and the bounding', () => {
  it('runs the host call and the result spill inside the store’s runCall, once', async () => {
    const events: string[] = [];
    let depth = 0;
    const store: ToolOutputStore = {
      runCall: async (work) => {
        events.push('open');
        depth += 1;
        try {
          return await work();
        } finally {
          depth -= 1;
          events.push('close');
        }
      },
      spill: (text) => {
        events.push(`spill in call: ${depth === 1}`);
        return Promise.resolve({ ref: 'spill-1', byteLength: text.length });
      },
    };
    const { tool } = stubTool({
      run: () => {
        events.push(`host in call: ${depth === 1}`);
        return Promise.resolve('x'.repeat(100));
      },
    });
    const registry = createToolRegistry({ tools: [tool], host: { outputStore: store } });

    await registry.dispatch(
      { id: '1', name: 'stub', args: {} },
      stubContext(['stub'], { limits: { maxBytes: 10, maxLines: 5 } }),
    );

    expect(events).toEqual(['open', 'host in call: true', 'spill in call: true', 'close']);
  });

  it('runs without a scope when the store has none', async () => {
    const { tool, calls } = stubTool();
    const registry = createToolRegistry({
      tools: [tool],
      host: { outputStore: { spill: () => Promise.reject(new Error('unused')) } },
    });

    await registry.dispatch({ id: '1', name: 'stub', args: {} }, stubContext(['stub']));

    expect(calls).toHaveLength(1);
  });
});
