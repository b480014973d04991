import type { ToolId } from '@toolhost/core';
import type { DurableMediaPart } from '@toolhost/core/host';

import type { DialTcp } from './create-pinned-dispatcher.js';
import { parseAddressRanges, type AddressRange } from './is-global-unicast.js';
import type { CredentialResolver } from './resolve-credential.js';
import type { EgressLookup } from './resolve-destination.js';

/** Where a binary body goes; the fs host's media store implements it. */
export interface EgressMediaSink {
  put(
    bytes: Uint8Array,
    info: { readonly mimeType: string; readonly scopes: readonly string[] },
  ): Promise<DurableMediaPart>;
}

/** `createNodeToolHost({ egress })` / `createEgressArm` options. */
export interface EgressOptions {
  /** The tool id errors name. Default `http_request`. */
  readonly toolId?: ToolId;
  /** Replaces system DNS (every A and AAAA answer); tests and custom resolvers use it. */
  readonly lookup?: EgressLookup;
  /** Extra trusted CA certificates (PEM), added to Node's bundled roots. */
  readonly ca?: string | readonly string[];
  /** Resolves `credentialRef`; absent ⇒ `env:NAME` and `file:/abs/path` are read directly. */
  readonly resolveCredential?: CredentialResolver;
  /**
   * CIDRs exempted from the SSRF floor. Empty by default; for tests and explicitly local MCP
   * endpoints only — every exempted range is one a model can reach.
   */
  readonly dangerouslyAllowRanges?: readonly string[];
  /** Response body cap. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /** Total budget for every hop and the body. Default 30 s. */
  readonly timeoutMs?: number;
  /** Redirects followed before `too_many_redirects`. Default 5. */
  readonly maxRedirects?: number;
  /** Receives binary bodies; absent ⇒ a binary body is described, never inlined. */
  readonly media?: EgressMediaSink;
  /** Opens TCP to a validated address (TLS stays ours); tests point it at loopback. */
  readonly dialTcp?: DialTcp;
}

/** Options with defaults filled and ranges parsed. */
export interface ResolvedEgressOptions {
  readonly toolId: ToolId;
  readonly lookup: EgressLookup | undefined;
  readonly ca: string | readonly string[] | undefined;
  readonly resolveCredential: CredentialResolver | undefined;
  readonly allowRanges: readonly AddressRange[];
  readonly maxBodyBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly media: EgressMediaSink | undefined;
  readonly dialTcp: DialTcp | undefined;
}

/** Fills defaults and rejects bad options at creation, not on first use. */
export function resolveEgressOptions(options: EgressOptions): ResolvedEgressOptions {
  const {
    toolId = 'http_request',
    maxBodyBytes = 10 * 1024 * 1024,
    timeoutMs = 30_000,
    maxRedirects = 5,
    dangerouslyAllowRanges = [],
  } = options;
  if (!(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw new TypeError('toolhost: egress maxBodyBytes must be a positive integer');
  }
  if (!(timeoutMs > 0)) throw new TypeError('toolhost: egress timeoutMs must be positive');
  if (!(Number.isInteger(maxRedirects) && maxRedirects >= 0)) {
    throw new TypeError('toolhost: egress maxRedirects must be a non-negative integer');
  }
  return {
    toolId,
    lookup: options.lookup,
    ca: options.ca,
    resolveCredential: options.resolveCredential,
    allowRanges: parseAddressRanges(dangerouslyAllowRanges),
    maxBodyBytes,
    timeoutMs,
    maxRedirects,
    media: options.media,
    dialTcp: options.dialTcp,
  };
}
