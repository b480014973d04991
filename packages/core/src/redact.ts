// `@toolhost/core/redact`: the redaction helpers the dispatch pipeline uses on previews, traces
// and errors.
export { redactSecretShapedText } from './redact/redact-secret-shaped-text.js';
export { redactText } from './redact/redact-text.js';
export {
  redactKey,
  redactLeaf,
  redactStructured,
  type RedactStructuredOptions,
} from './redact/redact-structured.js';
