import type { NodeHostParts } from '../create-node-tool-host.js';
import { createEgressArm, type EgressArm } from './create-egress-arm.js';

/**
 * The `egress` arm of `createNodeToolHost`, to spread into the host: `{}` unless the embedder
 * passed `egress` options (network access is opted into, never a default). Binary bodies go to
 * the host's media store unless the options name another sink; pooled connections close with
 * the host.
 */
export function createHostEgressArm(parts: NodeHostParts): { readonly egress?: EgressArm } {
  const options = parts.options.egress;
  if (options === undefined) return {};
  const egress = createEgressArm({ media: parts.media, ...options });
  parts.onClose(() => egress.close());
  return { egress };
}
