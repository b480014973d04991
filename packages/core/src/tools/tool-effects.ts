import type { ToolEffect } from '../tool-def.js';

/** A tool whose every call only reads: nothing changes, so a repeat changes nothing either. */
export const READ_ONLY_EFFECT: ToolEffect = Object.freeze({
  readOnly: true,
  destructive: false,
  idempotent: true,
});
