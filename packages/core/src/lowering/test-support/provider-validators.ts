/**
 * Each provider's documented tool-schema constraints as checks returning violations (a JSON path
 * and what is wrong). A schema one of these flags is one the provider would reject with a 400.
 *
 * Sources: OpenAI Structured Outputs "Supported schemas" (strict function calling); Anthropic
 * Messages `tools[].input_schema` (JSON Schema, `type: "object"`); Gemini `FunctionDeclaration`
 * and `Schema` (a select subset of OpenAPI 3.0: upper-case `Type`, `nullable`, no
 * `additionalProperties`, non-empty `properties` on OBJECT, format only `enum`/`date-time`).
 */
export { anthropicViolations } from './anthropic-violations.js';
export { geminiViolations } from './gemini-violations.js';
export { jsonSchemaViolations } from './json-schema-violations.js';
export type { Violations } from './json-schema-violations.js';
export { openAiFunctionViolations, openAiStrictViolations } from './openai-violations.js';
