import { ToolArgsInvalidError } from '../errors.js';
import { compareCodeUnits } from '../errors.js';
import type { ToolId } from '../tool-def.js';

/**
 * Step 4a: a secret-tainted value may not reach a tool argument. Checked on the effective set,
 * so a tainted value arriving through `inputMapping` or config is refused like a model's.
 */
export function checkSecretArgs(
  toolId: ToolId,
  args: Readonly<Record<string, unknown>>,
  secretArgKeys: ReadonlySet<string> | undefined,
): void {
  if (secretArgKeys === undefined || secretArgKeys.size === 0) return;
  const tainted: string[] = [];
  for (const key of secretArgKeys) if (Object.hasOwn(args, key)) tainted.push(key);
  if (tainted.length === 0) return;
  tainted.sort(compareCodeUnits);
  throw new ToolArgsInvalidError(
    toolId,
    tainted.map((field) => ({ field, problem: 'secret_tainted' })),
  );
}
