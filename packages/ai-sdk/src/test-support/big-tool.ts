import { defineTool } from '@toolhost/core';
import { z } from 'zod';

/** Returns 200 KB of numbered lines: far over any model-facing ceiling. */
export const bigTool = defineTool({
  id: 'big',
  description: 'Return a large log',
  args: z.strictObject({}),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async () => Array.from({ length: 10_000 }, (_, line) => `line ${line} ok`).join('\n'),
});
