import type {
  AbortSignalLike,
  EgressCapability,
  EgressRequest,
  EgressResponse,
  ToolHostCallOptions,
} from '@toolhost/core';

import { egressFetch } from './egress-fetch.js';
import { PinnedPoolCache } from './pinned-pool-cache.js';
import { resolveEgressOptions, type EgressOptions } from './resolve-egress-options.js';

/** The egress arm plus `close()`, which ends its pooled connections. */
export interface EgressArm extends EgressCapability {
  close(): Promise<void>;
}

/** Builds the SSRF-safe HTTPS egress arm of the Node host. */
export function createEgressArm(options: EgressOptions = {}): EgressArm {
  const resolved = resolveEgressOptions(options);
  const pools = new PinnedPoolCache(resolved);
  return {
    fetch(
      request: EgressRequest,
      signal?: AbortSignalLike,
      callOptions?: ToolHostCallOptions,
    ): Promise<EgressResponse> {
      const run = (): Promise<EgressResponse> =>
        egressFetch(request, signal, resolved, pools, callOptions?.idempotencyKey);
      // The runner's retainer owns the whole operation (credential, DNS, connection, body).
      return callOptions?.retainWork === undefined ? run() : callOptions.retainWork(run);
    },
    close: () => pools.close(),
  };
}
