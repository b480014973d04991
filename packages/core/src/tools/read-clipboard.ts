import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { ToolUnavailableError } from '../errors.js';

const ID = 'read_clipboard';

/** Reads the system clipboard as text (an OS action: always governed by approval). */
export const readClipboardTool = defineTool({
  id: ID,
  source: 'builtin',
  description: "Read the text currently on the user's system clipboard.",
  args: z.strictObject({}),
  policy: { fsScoped: false, spawnsProcess: false, os: true, requiresGateApproval: false },
  async dispatch(_args, host, ctx) {
    const os = host.os;
    if (os === undefined) throw new ToolUnavailableError(ID, 'os');
    return os.readClipboard(ctx.signal);
  },
});
