import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { ToolExecutionError, ToolPolicyError, type ToolId } from '@toolhost/core';
import { normalizeHost } from '@toolhost/core/policy';

import { isBlockedHostname } from './is-blocked-hostname.js';
import { isAllowedAddress, type AddressRange } from './is-global-unicast.js';
import type { AbortSource } from './call-signal.js';
import { ownedUntilSettled } from './owned-until-settled.js';

/** One DNS answer. */
export interface EgressAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Replaces system DNS: every A and AAAA answer for `hostname`. */
export type EgressLookup = (
  hostname: string,
) => Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>>;

/** A checked destination: the host to name (SNI, certificate, `Host`) and the IPs to dial. */
export interface ResolvedDestination {
  /** Normalised host; IPv6 literals keep their brackets. */
  readonly hostname: string;
  readonly port: number;
  /** Every answer, each one global unicast (or in an exempted range). Never empty. */
  readonly addresses: readonly EgressAddress[];
}

/** What `resolveDestination` needs. */
export interface ResolveDestinationOptions {
  readonly toolId: ToolId;
  readonly lookup?: EgressLookup | undefined;
  readonly allowRanges: readonly AddressRange[];
  readonly signal?: AbortSource | undefined;
}

/**
 * The SSRF floor for one hop: refuse blocked names, resolve A and AAAA ourselves, and refuse if
 * ANY answer is not global unicast — a name answering one public and one private address could
 * otherwise be dialled on the private one. The caller must dial only the returned addresses.
 */
export async function resolveDestination(
  url: URL,
  options: ResolveDestinationOptions,
): Promise<ResolvedDestination> {
  const judged = judgeDestinationName(url, options.toolId, options.allowRanges);
  if ('addresses' in judged) return judged;
  const { hostname, port } = judged;
  const { allowRanges, toolId } = options;
  const answers = await lookupAll(hostname, options);
  if (answers.length === 0) throw new ToolExecutionError(toolId, 'not_found');
  const addresses: EgressAddress[] = [];
  for (const answer of answers) {
    const answerFamily = isIP(answer.address);
    if (answerFamily !== 4 && answerFamily !== 6) throw new ToolPolicyError(toolId, 'ssrf_blocked');
    if (!isAllowedAddress(answer.address, allowRanges)) {
      throw new ToolPolicyError(toolId, 'ssrf_blocked');
    }
    addresses.push({ address: answer.address, family: answerFamily });
  }
  return { hostname, port, addresses };
}

/**
 * The part of the SSRF floor a URL decides alone, synchronously: a literal address must be
 * global unicast (or exempted), a blocked name (`localhost`, metadata names) is refused. A
 * literal comes back as its destination; a name still needs `resolveDestination`'s lookup.
 * The host's preflight asks this before anyone approves a call (`host-preflight.ts`).
 */
export function judgeDestinationName(
  url: URL,
  toolId: ToolId,
  allowRanges: readonly AddressRange[],
): ResolvedDestination | { readonly hostname: string; readonly port: number } {
  const hostname = normalizeHost(url.hostname);
  if (hostname === undefined) throw new ToolPolicyError(toolId, 'insecure_url');
  const port = url.port === '' ? 443 : Number(url.port);
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(literal);
  if (family === 4 || family === 6) {
    if (!isAllowedAddress(literal, allowRanges)) throw new ToolPolicyError(toolId, 'ssrf_blocked');
    return { hostname, port, addresses: [{ address: literal, family }] };
  }
  if (isBlockedHostname(hostname)) throw new ToolPolicyError(toolId, 'ssrf_blocked');
  return { hostname, port };
}

async function lookupAll(
  hostname: string,
  { toolId, lookup, signal }: ResolveDestinationOptions,
): Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>> {
  const pending =
    lookup === undefined
      ? dnsLookup(hostname, { all: true, verbatim: true })
      : Promise.resolve().then(() => lookup(hostname));
  try {
    return await ownedUntilSettled(pending, signal);
  } catch (error) {
    if (signal?.aborted === true) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    const reason = code === 'ENOTFOUND' || code === 'ENODATA' ? 'not_found' : 'network';
    throw new ToolExecutionError(toolId, reason, { cause: error });
  }
}
