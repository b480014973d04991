/** Who settled one approval: the audit log's and the page's `by`. */
export type ApprovalDecider =
  'page' | 'elicitation' | 'timeout' | 'withdrawn' | 'cancelled' | 'policy' | 'terminal';

// Core's decision type carries no `by` (core stays surface-free): the CLI notes it beside the
// decision object instead, and whoever reads a decision back looks it up here.
const deciders = new WeakMap<object, ApprovalDecider>();

/** Notes who made `decision` (a fresh object: a shared constant would label every call). */
export function markDecidedBy<T extends object>(decision: T, by: ApprovalDecider): T {
  deciders.set(decision, by);
  return decision;
}

/** Who made `decision`; a decision nobody noted is the policy's (a mode, a cache, a rule). */
export function decidedBy(decision: object): ApprovalDecider {
  return deciders.get(decision) ?? 'policy';
}
