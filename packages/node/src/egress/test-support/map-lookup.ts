import { isIP } from 'node:net';

import type { EgressLookup } from '../resolve-destination.js';

/** A name's answers; a list of lists is successive answers (the first call gets the first). */
export type DnsTable = Readonly<Record<string, readonly string[] | readonly (readonly string[])[]>>;

/**
 * An injected resolver over a fixed table (never live DNS). Names compare lowercased without a
 * trailing dot; an unknown name fails like ENOTFOUND. `calls` records every name asked.
 */
export function mapLookup(table: DnsTable): EgressLookup & { readonly calls: string[] } {
  const calls: string[] = [];
  const asked = new Map<string, number>();
  const entries = new Map(
    Object.entries(table).map(([name, answers]) => [canonical(name), answers]),
  );
  const lookup = async (hostname: string): Promise<Array<{ address: string; family: number }>> => {
    await Promise.resolve();
    const name = canonical(hostname);
    calls.push(name);
    const answers = entries.get(name);
    if (answers === undefined) {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    }
    const count = asked.get(name) ?? 0;
    asked.set(name, count + 1);
    const successive = Array.isArray(answers[0]);
    const current = (
      successive
        ? (answers as readonly (readonly string[])[])[Math.min(count, answers.length - 1)]
        : answers
    ) as readonly string[];
    return current.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

function canonical(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}
