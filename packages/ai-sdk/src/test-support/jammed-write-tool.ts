import { defineTool, ToolExecutionError } from '@toolhost/core';
import { z } from 'zod';

/** A governed write whose host call fails fatally, as a full disk would, after approval. */
export const jammedWriteTool = defineTool({
  id: 'jammed_write',
  description: 'Write a note to a disk that is full',
  args: z.strictObject({ note: z.string() }),
  policy: { fsScoped: true, fsWrite: true, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async (): Promise<string> => {
    throw new ToolExecutionError('jammed_write', 'disk_full', { retryable: false });
  },
});
