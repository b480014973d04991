import { context, SpanKind, trace, type Span, type Tracer } from '@opentelemetry/api';
import type {
  ToolCall,
  ToolDispatchContext,
  ToolDispatchOutcome,
  ToolRegistry,
} from '@toolhost/core';
import { recordFailure } from './record-failure.js';
import { recordOutcome, type RecordOutcomeOptions } from './record-outcome.js';
import { traceApproval } from './trace-approval.js';
import { toolSpanAttributes, toolSpanName } from './tool-span-attributes.js';
import { OTEL_PACKAGE_VERSION } from './version.js';

/** How `traceToolRegistry` records. */
export interface TraceToolRegistryOptions {
  /** Default: `trace.getTracer('@toolhost/otel', version)` from the global provider. */
  readonly tracer?: Tracer;
  /**
   * Record `gen_ai.tool.call.arguments`: the redacted projection of a successful call's
   * arguments (`outcome.events.call.toolInput`), bounded. Default false.
   */
  readonly recordArguments?: boolean;
  /**
   * Record `gen_ai.tool.call.result`: the redacted ≤ 500-character result summary
   * (`outcome.events.result.outputSummary`). Default false.
   */
  readonly recordResults?: boolean;
}

/**
 * A registry of the same shape whose `dispatch` is an `execute_tool {gen_ai.tool.name}` span
 * (GenAI semantic conventions), active while the call runs, so a host's own instrumented I/O
 * nests under it. `preflight`, `get` and `list` pass straight through.
 */
export function traceToolRegistry(
  registry: ToolRegistry,
  options: TraceToolRegistryOptions = {},
): ToolRegistry {
  const { tracer, record } = resolveTraceOptions(options);
  return Object.freeze({
    dispatch: (call: ToolCall, ctx: ToolDispatchContext) =>
      tracedDispatch(registry, tracer, record, call, ctx),
    preflight: (call: ToolCall, ctx: ToolDispatchContext) => registry.preflight(call, ctx),
    get: (id: string) => registry.get(id),
    list: () => registry.list(),
    missingHostArm: (id: string) => registry.missingHostArm(id),
  });
}

async function tracedDispatch(
  registry: ToolRegistry,
  tracer: Tracer,
  record: RecordOutcomeOptions,
  call: ToolCall,
  ctx: ToolDispatchContext,
): Promise<ToolDispatchOutcome> {
  // A name is looked up, never echoed: only a registered id reaches the span.
  const name: unknown = call?.name;
  const def = typeof name === 'string' ? registry.get(name) : undefined;
  const span = tracer.startSpan(toolSpanName(def), {
    kind: SpanKind.INTERNAL,
    attributes: toolSpanAttributes(def, call?.id),
  });
  let outcome: ToolDispatchOutcome;
  try {
    const approval = ctx?.approval;
    const traced =
      approval === undefined ? ctx : { ...ctx, approval: traceApproval(approval, span) };
    outcome = await context.with(trace.setSpan(context.active(), span), () =>
      registry.dispatch(call, traced),
    );
  } catch (error) {
    endWith(span, () => recordFailure(span, error));
    throw error;
  }
  endWith(span, () => recordOutcome(span, outcome, record));
  return outcome;
}

// Tracing never changes a call's outcome: a recording that throws is dropped; the span still ends.
function endWith(span: Span, recordOn: () => void): void {
  try {
    recordOn();
  } catch {
    // Dropped: the call's own result or error is what the caller gets.
  } finally {
    span.end();
  }
}

interface ResolvedTraceOptions {
  readonly tracer: Tracer;
  readonly record: RecordOutcomeOptions;
}

// Normalised once: a non-boolean opt-in is refused here rather than read as truthy later.
function resolveTraceOptions(options: TraceToolRegistryOptions): ResolvedTraceOptions {
  const { recordArguments = false, recordResults = false } = options;
  if (typeof recordArguments !== 'boolean' || typeof recordResults !== 'boolean') {
    throw new TypeError('toolhost: recordArguments and recordResults must be booleans');
  }
  const tracer = options.tracer ?? trace.getTracer('@toolhost/otel', OTEL_PACKAGE_VERSION);
  return { tracer, record: { recordArguments, recordResults } };
}
