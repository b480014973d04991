// `node --import` this file to run as if the optional OTLP exporter were not installed: its
// resolution fails exactly as Node's own does for a missing package (ERR_MODULE_NOT_FOUND).
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@opentelemetry/exporter-trace-otlp-http') {
    const error = new Error("Cannot find package '@opentelemetry/exporter-trace-otlp-http'");
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return nextResolve(specifier, context);
}`)}`,
);
