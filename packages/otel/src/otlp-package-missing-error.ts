/** The optional packages OTLP export loads on first use. */
export type OtlpPackage =
  | '@opentelemetry/sdk-trace-base'
  | '@opentelemetry/exporter-trace-otlp-http'
  | '@opentelemetry/resources';

/** OTLP export was asked for, but an optional OpenTelemetry package is not installed. */
export class OtlpPackageMissingError extends Error {
  readonly code = 'otlp_package_missing';
  override readonly name = 'OtlpPackageMissingError';

  constructor(
    readonly packageName: OtlpPackage,
    options: { readonly cause?: unknown } = {},
  ) {
    super(
      `OTLP trace export needs the optional package ${packageName}, which is not installed; install it (npm install ${packageName}) or unset OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
      options,
    );
  }
}
