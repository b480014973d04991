import type { ToolNodeConfig } from '../dispatch-context.js';
import { ToolArgsInvalidError } from '../errors.js';
import { INHERITS_NOTHING } from '../inherits-nothing.js';
import type { RegisteredTool } from './registered-tool.js';

/**
 * Step 3: the effective argument set, built before any check so policy never runs on half the
 * args: the model's args, then `inputMapping` over them, then the tool's config-only values from
 * `parameters` (config wins). A config-only key can only ever come from `parameters`.
 */
export function assembleArgs(
  tool: RegisteredTool,
  modelArgs: unknown,
  config: ToolNodeConfig,
): Record<string, unknown> {
  // Nothing inherited: no key, whatever its name, can reach Object.prototype.
  const effective = Object.create(INHERITS_NOTHING) as Record<string, unknown>;
  if (modelArgs !== undefined) {
    if (!isRecord(modelArgs)) throw new ToolArgsInvalidError(tool.def.id, ['(root)']);
    copyInto(effective, modelArgs, tool.configOnly);
  }
  // Mapped values may carry upstream model output, so they cannot set a pinned key either.
  if (config.inputMapping !== undefined) copyInto(effective, config.inputMapping, tool.configOnly);
  const parameters = config.parameters;
  if (parameters !== undefined) {
    for (const key of tool.configOnly) {
      if (Object.hasOwn(parameters, key)) effective[key] = parameters[key];
    }
  }
  return effective;
}

function copyInto(
  target: Record<string, unknown>,
  source: Readonly<Record<string, unknown>>,
  skip: ReadonlySet<string>,
): void {
  for (const key of Object.keys(source)) {
    // Dropped, not refused: a model sending `cwd` gets the pinned `cwd`, not an error to probe.
    if (skip.has(key) || PROTOTYPE_KEYS.has(key)) continue;
    target[key] = source[key];
  }
}

const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
