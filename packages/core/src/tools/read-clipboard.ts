import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { READ_ONLY_EFFECT } from './tool-effects.js';

const ID = 'read_clipboard';

/** Reads the system clipboard as text (an OS action: always governed by approval). */
export const readClipboardTool = defineTool({
  id: ID,
  source: 'builtin',
  description: "Read the text currently on the user's system clipboard.",
  args: z.strictObject({}),
  policy: {
    fsScoped: false,
    spawnsProcess: false,
    os: true,
    requiresGateApproval: false,
    // Governed for privacy, not for change: reading the clipboard leaves it as it was.
    effect: READ_ONLY_EFFECT,
  },
  async dispatch(_args, host, ctx) {
    const os = requireArmBeforeEffect(ID, host.os, 'os');
    return os.readClipboard(ctx.signal);
  },
});
