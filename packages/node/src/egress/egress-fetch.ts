import {
  ToolCancelledError,
  ToolDispatchError,
  ToolExecutionError,
  ToolPolicyError,
  type ToolId,
} from '@toolhost/core';
import {
  refusedBeforeEffect,
  type AbortSignalLike,
  type EgressRequest,
  type EgressResponse,
} from '@toolhost/core/host';
import { normalizeHost } from '@toolhost/core/policy';

import { CallSignal } from './call-signal.js';
import { assertHostAllowed, checkEgressUrl, normalizeAllowlist } from './check-egress-url.js';
import type { PinnedPoolCache } from './pinned-pool-cache.js';
import { buildEgressResponse, single } from './build-egress-response.js';
import { closingConnections } from './closing-connections.js';
import { ownedUntilSettled } from './owned-until-settled.js';
import { resolveCredential, toAuthorization } from './resolve-credential.js';
import { resolveDestination } from './resolve-destination.js';
import type { ResolvedEgressOptions } from './resolve-egress-options.js';
import { isDroppedHeader, sanitizeRequestHeaders } from './sanitize-request-headers.js';
import { IDEMPOTENCY_KEY_HEADER, toIdempotencyKeyHeader } from './idempotency-key-header.js';
import { toEgressError } from './to-egress-error.js';

type Method = EgressRequest['method'] | 'GET';

/**
 * One policy-checked HTTPS request: every hop re-checked, pinned, bounded and timed. A journaled
 * call's `idempotencyKey` goes out as the `Idempotency-Key` header.
 */
export async function egressFetch(
  request: EgressRequest,
  signal: AbortSignalLike | undefined,
  options: ResolvedEgressOptions,
  pools: PinnedPoolCache,
  idempotencyKey?: string,
): Promise<EgressResponse> {
  const { toolId } = options;
  // Cancelled before anything was judged or sent.
  if (signal?.aborted === true) throw refusedBeforeEffect(new ToolCancelledError(toolId));
  const callSignal = new CallSignal();
  const onAbort = (): void => {
    callSignal.cancelled = true;
    callSignal.abort(signal?.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    callSignal.timedOut = true;
    callSignal.abort(new Error('egress deadline'));
  }, options.timeoutMs);
  try {
    return await fetchHops(request, { options, pools, signal: callSignal }, idempotencyKey);
  } catch (error) {
    throw toEgressError(toolId, error, callSignal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

interface HopContext {
  readonly options: ResolvedEgressOptions;
  readonly pools: PinnedPoolCache;
  readonly signal: CallSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function fetchHops(
  request: EgressRequest,
  context: HopContext,
  idempotencyKey: string | undefined,
): Promise<EgressResponse> {
  const { options, pools, signal } = context;
  const { toolId } = options;
  // Until the first request is handed to the connection, nothing was sent: a journaled call
  // refused before it (URL, allowlist, headers, key, credential, the first hop's DNS and SSRF
  // floor) may run later. Re-made cancels and timeouts (`toEgressError`) stay unmarked.
  let sent = false;
  try {
    let url = checkEgressUrl(toolId, request.url);
    const firstHost = normalizeHost(url.hostname);
    if (firstHost === undefined) throw new ToolPolicyError(toolId, 'insecure_url');
    const allowedHosts =
      request.allowedDomains === undefined ? undefined : normalizeAllowlist(request.allowedDomains);
    if (allowedHosts !== undefined) assertHostAllowed(toolId, url, allowedHosts, firstHost);
    const headers = sanitizeRequestHeaders(toolId, request.headers);
    // The host's key replaces a model-supplied one in any case spelling (names are lowercased):
    // the draft allows one per request, and only the journal's names this call.
    if (idempotencyKey !== undefined) {
      headers[IDEMPOTENCY_KEY_HEADER] = toIdempotencyKeyHeader(toolId, idempotencyKey);
    }
    const credential = await attachCredential(toolId, request, headers, context);
    const firstOrigin = url.origin;
    // Sticky: once a hop leaves the credential's origin, a redirect back cannot re-arm it (else
    // any host on the chain could aim an authenticated request at any path of the first one).
    let sameOrigin = true;
    let method: Method = request.method;
    let body = request.body;

    for (let hop = 0; ; hop += 1) {
      const destination = await resolveDestination(url, {
        toolId,
        lookup: options.lookup,
        allowRanges: options.allowRanges,
        signal,
      });
      // A DNS answer that arrives after an abort must not open a connection.
      signal.throwIfAborted();
      sameOrigin &&= url.origin === firstOrigin;
      const hopHeaders = sameOrigin
        ? headers
        : withoutCredentials(headers, credential?.headerName, idempotencyKey !== undefined);
      // From here a request may land: nothing thrown after this is before the effect (a redirect
      // hop's refusal follows a request the server already has).
      sent = true;
      const pool = pools.get(destination);
      const response = await pool
        .request({
          path: `${url.pathname}${url.search}`,
          method,
          headers: hopHeaders,
          ...(body === undefined ? {} : { body }),
          signal,
        })
        .catch(async (error: unknown) => {
          // Failed or aborted before its headers: undici destroyed the connection, and only its
          // `close` ends the request (the body stage waits the same way, `readResponseBody`).
          await closingConnections(pool);
          throw error;
        });
      const location = single(response.headers.location);
      if (!REDIRECTS.has(response.statusCode) || location === undefined) {
        const secret = credential?.secret;
        return await buildEgressResponse({
          request,
          response,
          url,
          credential: secret,
          options,
          signal,
        });
      }
      await response.body.dump();
      if (hop >= options.maxRedirects) throw new ToolExecutionError(toolId, 'too_many_redirects');
      // Each hop is judged exactly like the first: https, no userinfo, allowlist, then SSRF.
      url = checkEgressUrl(toolId, location, url);
      assertHostAllowed(toolId, url, allowedHosts, firstHost);
      // fetch's rules: 303 always, and 301/302 after a POST, continue as a body-less GET.
      if (response.statusCode === 303 || (response.statusCode <= 302 && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
        // The key named the original request; a body-less GET is another request.
        if (idempotencyKey !== undefined) delete headers[IDEMPOTENCY_KEY_HEADER];
      }
    }
  } catch (error) {
    throw !sent && error instanceof ToolDispatchError ? refusedBeforeEffect(error) : error;
  }
}

async function attachCredential(
  toolId: ToolId,
  request: EgressRequest,
  headers: Record<string, string>,
  { options, signal }: HopContext,
): Promise<{ readonly secret: string; readonly headerName: string } | undefined> {
  if (request.credentialRef === undefined) return undefined;
  const headerName = (request.credentialHeader ?? 'authorization').toLowerCase();
  // Checked before the secret is read: a bad header name must not cost a secret lookup.
  sanitizeRequestHeaders(toolId, { [headerName]: '' });
  if (isDroppedHeader(headerName)) {
    throw new ToolExecutionError(toolId, 'credential_header_invalid');
  }
  const secret = await ownedUntilSettled(
    resolveCredential(toolId, request.credentialRef, options.resolveCredential),
    signal,
  );
  // The host's credential replaces whatever the model put there, in any case spelling.
  headers[headerName] = headerName === 'authorization' ? toAuthorization(secret) : secret;
  return { secret, headerName };
}

// A credential belongs to the origin it was configured for; fetch drops it across origins too.
// So does the host's idempotency key: its scope is the first origin's resource (the draft), and
// another origin has no record of the request it names.
function withoutCredentials(
  headers: Record<string, string>,
  credentialHeader: string | undefined,
  dropIdempotencyKey: boolean,
): Record<string, string> {
  const rest = { ...headers };
  if (dropIdempotencyKey) delete rest[IDEMPOTENCY_KEY_HEADER];
  for (const name of ['authorization', 'cookie', 'x-subscription-token', 'x-api-key']) {
    delete rest[name];
  }
  if (credentialHeader !== undefined) delete rest[credentialHeader];
  return rest;
}
