import type { ToolRegistry } from '@toolhost/core';
import { CliUsageError } from '../cli-error.js';
import type { CliIo } from '../commands/cli-io.js';

/** The CLI's OTLP export: wraps each session's registry, flushed by `shutdown`. */
export interface CliTracing {
  traceRegistry(registry: ToolRegistry): ToolRegistry;
  /**
   * Exports every span still queued; `call` awaits it before exiting, `serve` on stop. Never
   * rejects: a collector that is down costs the traces (said on stderr), not the command.
   */
  shutdown(): Promise<void>;
}

// A call waits for its export before it exits: a collector that is down must not cost ten
// seconds a call (`OTEL_EXPORTER_OTLP_TIMEOUT` still overrides this).
const EXPORT_TIMEOUT_MS = 3_000;

/**
 * Starts OTLP trace export when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set;
 * otherwise loads nothing: @toolhost/otel and the OpenTelemetry SDK are not start-up cost.
 */
export async function startTracing(
  io: Pick<CliIo, 'env' | 'stderr'>,
): Promise<CliTracing | undefined> {
  const { env } = io;
  if (!hasEndpoint(env)) return undefined;
  const [{ startOtlpTracing, OtlpPackageMissingError }, { traceToolRegistry }] = await Promise.all([
    import('@toolhost/otel/otlp'),
    import('@toolhost/otel'),
  ]).catch((error: unknown) => {
    // An optional peer of the library build (the toolhost binary bundles it): named, with the fix.
    if (isOtelMissing(error)) {
      throw new CliUsageError(
        'OTLP export needs @toolhost/otel, an optional peer of @toolhost/cli: install it beside @toolhost/cli',
        { cause: error },
      );
    }
    throw error;
  });
  try {
    const { tracer, shutdown } = await startOtlpTracing({
      env,
      defaultTimeoutMillis: EXPORT_TIMEOUT_MS,
    });
    return {
      traceRegistry: (registry) => traceToolRegistry(registry, { tracer }),
      shutdown: () => shutdown().catch((error: unknown) => warnNotExported(io.stderr, error)),
    };
  } catch (error) {
    // A fixed message naming the package and the fix; the resolver's paths stay on `cause`.
    if (error instanceof OtlpPackageMissingError) {
      throw new CliUsageError(error.message, { cause: error });
    }
    throw error;
  }
}

// The endpoint and the collector's answer are the operator's to debug; only an errno code is said.
function warnNotExported(stderr: CliIo['stderr'], error: unknown): void {
  const code: unknown = (error as { code?: unknown } | null)?.code;
  const why = typeof code === 'string' && /^E[A-Z]{2,20}$/u.test(code) ? ` (${code})` : '';
  stderr.write(`toolhost: the traces were not exported to the OTLP endpoint${why}\n`);
}

// The same test as `otlpTracingRequested`, here so that a run without it imports nothing.
function hasEndpoint(env: Readonly<Record<string, string | undefined>>): boolean {
  return [env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'], env['OTEL_EXPORTER_OTLP_ENDPOINT']].some(
    (value) => value !== undefined && value.trim() !== '',
  );
}

function isOtelMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
    error.message.includes("'@toolhost/otel")
  );
}
