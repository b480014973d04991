import type { NodeHostParts } from '../create-node-tool-host.js';
import { createEgressArm, type EgressArm } from './create-egress-arm.js';
import type { EgressOptions } from './resolve-egress-options.js';

/**
 * The `egress` arm of `createNodeToolHost`: absent unless the embedder passed `egress` options
 * (network access is opted into, never a default). Binary bodies go to the host's media store
 * unless the options name another sink; the arm's pooled connections close with the host.
 */
export function createHostEgressArm(
  parts: NodeHostParts,
  options: EgressOptions | undefined,
): EgressArm | undefined {
  if (options === undefined) return undefined;
  const arm = createEgressArm({ media: parts.media, ...options });
  parts.onClose(() => arm.close());
  return arm;
}
