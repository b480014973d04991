/** The instrumentation scope version the default tracer is named with. */
export const OTEL_PACKAGE_VERSION = '0.1.0';
