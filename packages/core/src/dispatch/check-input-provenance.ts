import type { ToolNodeConfig } from '../dispatch-context.js';
import { ToolPolicyError } from '../errors.js';
import type { ToolId } from '../tool-def.js';

/**
 * Step 4a, first half: mapped values carry upstream output whose secret provenance only the
 * caller knows, so a dispatch `inputMapping` supplies values to must say which keys are tainted.
 * An absent `secretArgKeys` is unverified provenance, not proof of clean args, and refuses
 * (`unverified_provenance`); an explicit empty set is the caller's word that none is tainted.
 */
export function checkInputProvenance(
  toolId: ToolId,
  config: ToolNodeConfig,
  secretArgKeys: ReadonlySet<string> | undefined,
): void {
  if (secretArgKeys !== undefined) return;
  const mapping = config.inputMapping;
  // Any key counts, even one the merge then drops: it was supplied without a verdict.
  if (mapping === undefined || Object.keys(mapping).length === 0) return;
  throw new ToolPolicyError(toolId, 'unverified_provenance');
}
