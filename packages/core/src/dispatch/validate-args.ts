import { z } from 'zod';
import { toArgsIssues } from '../define-tool.js';
import { ToolArgsInvalidError } from '../errors.js';
import type { AnyToolDef } from '../tool-def.js';

/**
 * Step 4b: the tool's own validator on the COMPLETE effective set. Whatever a hand-written
 * `parseArgs` throws becomes a `ToolArgsInvalidError` naming fields, never values.
 */
export function validateArgs(
  tool: AnyToolDef,
  effective: Readonly<Record<string, unknown>>,
): unknown {
  try {
    return tool.parseArgs(effective);
  } catch (error) {
    if (error instanceof ToolArgsInvalidError) throw error;
    if (error instanceof z.ZodError) {
      throw new ToolArgsInvalidError(tool.id, toArgsIssues(error), { cause: error });
    }
    throw new ToolArgsInvalidError(tool.id, ['(root)'], { cause: error });
  }
}
