import type { ToolId } from '@toolhost/core';
import type {
  AbortSignalLike,
  EgressCapability,
  EgressRequest,
  EgressResponse,
  ToolHostCallOptions,
} from '@toolhost/core/host';

import { checkEgressUrl } from './check-egress-url.js';
import { egressFetch } from './egress-fetch.js';
import { PinnedPoolCache } from './pinned-pool-cache.js';
import { judgeDestinationName } from './resolve-destination.js';
import { resolveEgressOptions, type EgressOptions } from './resolve-egress-options.js';

/** The egress arm plus `close()`, which ends its pooled connections. */
export interface EgressArm extends EgressCapability {
  /**
   * What the arm refuses of a request URL before any lookup or connection: not https, userinfo,
   * a literal address or a name the SSRF floor blocks. The host's preflight; `fetch` judges
   * every hop again.
   */
  judgeUrl(toolId: ToolId, url: string): void;
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
    judgeUrl: (toolId, url) =>
      void judgeDestinationName(checkEgressUrl(toolId, url), toolId, resolved.allowRanges),
    close: () => pools.close(),
  };
}
