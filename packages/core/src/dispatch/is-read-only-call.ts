import type { AnyToolDef } from '../tool-def.js';

/**
 * Whether the validated args make this call a read (`policy.readOnlyWhen`): only an own data
 * property holding exactly `true` does. Absent, `false`, a getter or a non-object all answer no,
 * so anything unreadable stays governed (fail closed).
 */
export function isReadOnlyCall({ policy }: AnyToolDef, args: unknown): boolean {
  const key = policy.readOnlyWhen;
  if (typeof key !== 'string' || typeof args !== 'object' || args === null) return false;
  // A descriptor, not `args[key]`: reading it never runs code and never walks the prototype.
  const descriptor = Object.getOwnPropertyDescriptor(args, key);
  return descriptor !== undefined && 'value' in descriptor && descriptor.value === true;
}
