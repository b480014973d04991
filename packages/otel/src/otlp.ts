// `@toolhost/otel/otlp`: OTLP/HTTP export for a process that has no OpenTelemetry SDK of its own
// (the toolhost CLI). The SDK packages load on first call, so importing this costs nothing.
import type { Tracer } from '@opentelemetry/api';
import { OtlpPackageMissingError, type OtlpPackage } from './otlp-package-missing-error.js';
import { OTEL_PACKAGE_VERSION } from './version.js';

export { OtlpPackageMissingError } from './otlp-package-missing-error.js';
export type { OtlpPackage } from './otlp-package-missing-error.js';

/** Options of `startOtlpTracing`. */
export interface OtlpTracingOptions {
  /**
   * Read for `OTEL_SERVICE_NAME` and the timeout variables; default `process.env`. The exporter
   * reads its own endpoint, headers and compression from `process.env`.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The traces endpoint (`…/v1/traces`). Default: the exporter's own reading of
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`.
   */
  readonly url?: string;
  /** `service.name`; default `OTEL_SERVICE_NAME`, else `toolhost`. */
  readonly serviceName?: string;
  /**
   * How long one export may take (retries included) when the environment sets no
   * `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` / `OTEL_EXPORTER_OTLP_TIMEOUT`. Default: the exporter's
   * 10 s. A short-lived process picks less, so a collector that is down costs it little.
   */
  readonly defaultTimeoutMillis?: number;
}

/** A running OTLP pipeline: a tracer of its own provider (the global one is left alone). */
export interface OtlpTracing {
  readonly tracer: Tracer;
  /** Exports every ended span still queued, then stops; safe to call more than once. */
  shutdown(): Promise<void>;
}

/** The exporter's own default export timeout. */
const EXPORT_TIMEOUT_MS = 10_000;

/**
 * Starts a BasicTracerProvider with a BatchSpanProcessor and an OTLP/HTTP (JSON) exporter
 * configured from the standard `OTEL_EXPORTER_OTLP_*` variables. A missing optional package is
 * an `OtlpPackageMissingError` naming it.
 */
export async function startOtlpTracing(options: OtlpTracingOptions = {}): Promise<OtlpTracing> {
  const env = options.env ?? process.env;
  const [sdk, exporterPackage, resources] = await Promise.all([
    loadOptional(
      '@opentelemetry/sdk-trace-base',
      () => import('@opentelemetry/sdk-trace-base'),
      'BasicTracerProvider',
    ),
    loadOptional(
      '@opentelemetry/exporter-trace-otlp-http',
      () => import('@opentelemetry/exporter-trace-otlp-http'),
      'OTLPTraceExporter',
    ),
    loadOptional(
      '@opentelemetry/resources',
      () => import('@opentelemetry/resources'),
      'resourceFromAttributes',
    ),
  ]);
  const timeoutMillis = timeoutSet(env) ? undefined : options.defaultTimeoutMillis;
  const exporter = new exporterPackage.OTLPTraceExporter({
    ...(options.url === undefined ? {} : { url: options.url }),
    ...(timeoutMillis === undefined ? {} : { timeoutMillis }),
  });
  const serviceName = options.serviceName ?? nonEmpty(env['OTEL_SERVICE_NAME']) ?? 'toolhost';
  const provider = new sdk.BasicTracerProvider({
    resource: resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ 'service.name': serviceName })),
    spanProcessors: [
      new sdk.BatchSpanProcessor(exporter, {
        exportTimeoutMillis: timeoutMillis ?? EXPORT_TIMEOUT_MS,
      }),
    ],
  });
  let stopped: Promise<void> | undefined;
  return {
    tracer: provider.getTracer('@toolhost/otel', OTEL_PACKAGE_VERSION),
    shutdown: () => (stopped ??= provider.shutdown()),
  };
}

/** Whether the environment asks for OTLP trace export (either endpoint variable is set). */
export function otlpTracingRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  return (
    nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) !== undefined ||
    nonEmpty(env['OTEL_EXPORTER_OTLP_ENDPOINT']) !== undefined
  );
}

function timeoutSet(env: Readonly<Record<string, string | undefined>>): boolean {
  return (
    nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT']) !== undefined ||
    nonEmpty(env['OTEL_EXPORTER_OTLP_TIMEOUT']) !== undefined
  );
}

async function loadOptional<Module extends object>(
  name: OtlpPackage,
  load: () => Promise<Module>,
  exportName: keyof Module & string,
): Promise<Module> {
  let loaded: Module;
  try {
    loaded = await load();
  } catch (error) {
    if (isModuleNotFound(error)) throw new OtlpPackageMissingError(name, { cause: error });
    throw error;
  }
  // These packages are CommonJS: a bundle (the CLI's) may hand one over as `{ default: exports }`.
  if (exportName in loaded) return loaded;
  return (loaded as { readonly default?: Module }).default ?? loaded;
}

function isModuleNotFound(error: unknown): boolean {
  const code: unknown = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
