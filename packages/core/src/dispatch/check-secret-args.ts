import { ToolArgsInvalidError, ToolPolicyError } from '../errors.js';
import { compareCodeUnits } from '../errors.js';
import type { RegisteredTool } from './registered-tool.js';
import { secretArgKeyReadings } from './secret-arg-top-keys.js';
import { toolParamKeys } from './tool-param-keys.js';

/**
 * Step 4a: a secret-tainted value may not reach a tool argument. Checked on the effective set,
 * so a tainted value arriving through `inputMapping` or config is refused like a model's.
 * Returns the tainted top-level keys, which every projection of the call hides.
 *
 * An entry may name a nested path (`content.value`): it taints its top-level key, since the
 * value under it is what reaches the tool. An entry that names no parameter of the tool refuses
 * (`unknown_secret_arg_key`): a taint that matched nothing would otherwise let the value run
 * and show unhidden. The refusal names no key: the reason says what is wrong, the config where.
 */
export function checkSecretArgs(
  tool: RegisteredTool,
  args: Readonly<Record<string, unknown>>,
  secretArgKeys: ReadonlySet<string> | undefined,
): ReadonlySet<string> {
  if (secretArgKeys === undefined || secretArgKeys.size === 0) return NONE;
  const { def } = tool;
  // Unknown keys mean deny: an empty guess would make every entry "not a parameter" anyway,
  // and a wrong one could hide a real parameter from the taint.
  const params = toolParamKeys(def);
  if (params === undefined) throw new ToolPolicyError(def.id, 'unknown_secret_arg_key');
  const taintedKeys = new Set<string>();
  for (const entry of secretArgKeys) {
    const matched = secretArgKeyReadings(entry).filter((key) => params.has(key));
    if (matched.length === 0) throw new ToolPolicyError(def.id, 'unknown_secret_arg_key');
    for (const key of matched) taintedKeys.add(key);
  }
  const present = [...taintedKeys].filter((key) => Object.hasOwn(args, key));
  if (present.length > 0) {
    present.sort(compareCodeUnits);
    throw new ToolArgsInvalidError(
      def.id,
      present.map((field) => ({ field, problem: 'secret_tainted' })),
    );
  }
  return taintedKeys;
}

const NONE: ReadonlySet<string> = new Set();
