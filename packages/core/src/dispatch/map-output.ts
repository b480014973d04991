import type { ToolNodeConfig } from '../dispatch-context.js';

/**
 * Step 7: `outputMapping` on the FULL result, so workflow state holds the real value and never
 * the bounded preview. Each entry is a dot path through own properties only (`__proto__` or
 * `constructor` in a path reach nothing); a missing step yields `undefined`.
 */
export function mapOutput(result: unknown, config: ToolNodeConfig): unknown {
  const mapping = config.outputMapping;
  if (mapping === undefined) return result;
  // Object.fromEntries defines own data properties: a `__proto__` state key cannot pollute.
  return Object.fromEntries(
    Object.keys(mapping).map((stateKey) => [stateKey, readPath(result, mapping[stateKey] ?? '')]),
  );
}

function readPath(value: unknown, path: string): unknown {
  if (path === '') return value;
  let current = value;
  for (const step of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, step)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
