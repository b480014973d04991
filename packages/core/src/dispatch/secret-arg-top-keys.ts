/**
 * The top-level argument keys one `secretArgKeys` entry may taint: the entry itself and every
 * prefix ending before a dot, so `content.value` taints `content` (the whole value, since a
 * projection cannot hide one leaf it cannot see), and a key whose own name holds a dot still
 * matches. Listing every reading fails closed: no way of parsing the entry leaves a key clean.
 */
export function secretArgKeyReadings(entry: string): string[] {
  // A JavaScript caller can put anything in the set: a non-string reads as no key, so the
  // registry refuses it as naming no parameter instead of failing untyped.
  if (typeof entry !== 'string') return [];
  const readings = [entry];
  for (let dot = entry.indexOf('.'); dot !== -1; dot = entry.indexOf('.', dot + 1)) {
    readings.push(entry.slice(0, dot));
  }
  return readings;
}

/**
 * Every key a projection must hide for these entries, whether or not the tool declares it: what
 * a caller that writes before the registry judged the call (an audit line) uses.
 */
export function secretArgTopKeys(secretArgKeys: ReadonlySet<string> | undefined): Set<string> {
  const keys = new Set<string>();
  for (const entry of secretArgKeys ?? []) {
    for (const key of secretArgKeyReadings(entry)) keys.add(key);
  }
  return keys;
}
