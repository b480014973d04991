// The order a session's registry is wrapped in: audit innermost, so tracing sees audited calls.
import type { ToolRegistry } from '@toolhost/core';
import type { AuditLog } from '../audit/audit-log.js';
import { withAudit } from '../audit/with-audit.js';

/** What wraps a session's engine registry; each part is optional. */
export interface RegistryWrappers {
  readonly audit: AuditLog | undefined;
  /** E.g. OTLP tracing (`startTracing`). */
  readonly traceRegistry: ((registry: ToolRegistry) => ToolRegistry) | undefined;
}

/** Audits every dispatch of `engine`, whoever makes it, then hands it to the trace wrapper. */
export function wrapRegistry(engine: ToolRegistry, wrappers: RegistryWrappers): ToolRegistry {
  const audited = wrappers.audit === undefined ? engine : withAudit(engine, wrappers.audit);
  return wrappers.traceRegistry?.(audited) ?? audited;
}
