import { fromOpenAiStrictArgs } from '@toolhost/core/lowering';
import type { ToolPreflight } from '@toolhost/core/policy';
import type { ToolBinding } from './adapter-binding.js';

/**
 * The engine's checks before consent for one call, as its model sent it (strict `null`s mapped
 * back): throws the typed refusal dispatch would, else returns the scrubbed preview `confirm`
 * gets. `undefined` for a registry without `preflight`.
 */
export function preflightCall(
  { adapter, def, strict }: ToolBinding,
  input: unknown,
  callId: string | undefined,
): ToolPreflight | undefined {
  const { registry, resolved } = adapter;
  if (registry.preflight === undefined) return undefined;
  const args = strict ? fromOpenAiStrictArgs(def, input) : input;
  return registry.preflight({ id: callId ?? '', name: def.id, args }, resolved.contextFor(def.id));
}

/**
 * `needsApproval` under `approval: 'sdk'`: only a governed call the engine's checks let through
 * is put to a human. A refused call is not: `execute` dispatches it and the same typed refusal
 * takes the failure ladder. A registry without `preflight` asks for every governed call.
 */
export function presentForApproval(
  binding: ToolBinding,
  input: unknown,
  callId: string | undefined,
): boolean {
  try {
    const preflight = preflightCall(binding, input, callId);
    return preflight === undefined || preflight.action !== undefined;
  } catch {
    return false;
  }
}
