import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';

const ID = 'notify';

/** Longest notification title. */
export const MAX_NOTIFY_TITLE_LENGTH = 256;
/** Longest notification body. */
export const MAX_NOTIFY_BODY_LENGTH = 4096;

/** Shows a native desktop notification. */
export const notifyTool = defineTool({
  id: ID,
  source: 'builtin',
  description: 'Show the user a native desktop notification with a title and a body.',
  args: z.strictObject({
    title: z.string().min(1).max(MAX_NOTIFY_TITLE_LENGTH).describe('Notification title.'),
    body: z.string().max(MAX_NOTIFY_BODY_LENGTH).describe('Notification text.'),
  }),
  policy: {
    fsScoped: false,
    spawnsProcess: false,
    os: true,
    requiresGateApproval: false,
    // Adds a notification, replaces nothing; a repeat shows another one.
    effect: { readOnly: false, destructive: false, idempotent: false },
  },
  async dispatch(args, host, ctx) {
    const os = requireArmBeforeEffect(ID, host.os, 'os');
    return os.notify({ title: args.title, body: args.body }, ctx.signal);
  },
});
