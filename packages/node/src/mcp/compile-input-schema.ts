import { createRequire } from 'node:module';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { ToolArgsInvalidError, type ToolArgsIssue, type ToolId } from '@toolhost/core';
import { RE2JS } from 're2js';

type SdkAjv = NonNullable<ConstructorParameters<typeof AjvJsonSchemaValidator>[0]>;
type SdkAjvConstructor = new (options: object) => SdkAjv;

// The SDK's own ajv (and ajv-formats), resolved from the SDK's location: the same validator the
// SDK would build by default, only with a linear-time pattern engine plugged in.
const sdkRequire = createRequire(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/validation/ajv'),
);
const Ajv = (sdkRequire('ajv') as { readonly Ajv: SdkAjvConstructor }).Ajv;
const addFormats = (sdkRequire('ajv-formats') as { readonly default: (ajv: SdkAjv) => unknown })
  .default;

/**
 * `pattern` and `patternProperties` come from the MCP server: under the native backtracking
 * engine a hostile `^(a+)+$` stalls the event loop for seconds on one argument. RE2 matches in
 * linear time; what it cannot express (backreferences, lookaheads) fails to compile, so the tool
 * is dropped instead of its pattern being run on a backtracking engine.
 */
const linearRegExp = Object.assign(
  (pattern: string, flags: string): { test(input: string): boolean; toString(): string } => {
    // ajv asks only for `u`; any other flag would change what the pattern means.
    if (flags !== '' && flags !== 'u') throw new TypeError('toolhost: unsupported pattern flags');
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    // ajv keys its compiled patterns by `toString()`: each pattern keeps its own key.
    return { test: (input) => compiled.test(input), toString: () => pattern };
  },
  { code: 're2js' },
);

/** Validates one tool's arguments; throws `ToolArgsInvalidError` naming fields, never values. */
export type McpArgsValidator = (raw: unknown) => Record<string, unknown>;

/**
 * Compiles a server's `inputSchema` with the SDK's ajv provider (a real JSON Schema validator).
 * Throws when the schema cannot be compiled, so the caller can drop the tool with a reason.
 */
export function compileInputSchema(toolId: ToolId, inputSchema: object): McpArgsValidator {
  // A fresh ajv per tool: ajv caches by `$id`, so a shared instance would let one tool's schema
  // (or another server's) silently stand in for a second schema that reuses the same `$id`.
  const validate = new AjvJsonSchemaValidator(createAjv()).getValidator<Record<string, unknown>>(
    inputSchema as JsonSchemaType,
  );
  return (raw) => {
    const args = raw === undefined ? {} : raw;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new ToolArgsInvalidError(toolId, [{ field: '(root)', problem: 'invalid_type' }]);
    }
    const result = validate(args);
    if (result.valid) return args as Record<string, unknown>;
    throw new ToolArgsInvalidError(toolId, toArgsIssues(result.errorMessage));
  };
}

// The SDK's default options, plus the linear-time pattern engine.
function createAjv(): SdkAjv {
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: linearRegExp },
  });
  addFormats(ajv);
  return ajv;
}

// ajv's errorsText joins `data<instancePath> <message>` with ", ". Messages never carry the
// instance value; the field names do come from the model, so they are filtered below.
function toArgsIssues(errorMessage: string): ToolArgsIssue[] {
  const issues = errorMessage.split(/, (?=data[/ ])/).map((part): ToolArgsIssue => {
    const match = /^data(\S*) (.*)$/s.exec(part);
    const pointer = match?.[1] ?? '';
    const text = match?.[2] ?? '';
    const segments = pointer.split('/').slice(1).map(unescapePointer);
    const required = /^must have required property '([^']*)'$/.exec(text);
    if (required?.[1] !== undefined) segments.push(required[1]);
    return { field: toField(segments), problem: toProblem(text, required !== null) };
  });
  return issues.length === 0 ? [{ field: '(root)', problem: 'invalid' }] : issues;
}

function toProblem(text: string, required: boolean): string {
  if (required) return 'required';
  if (text.includes('additional properties')) return 'unrecognized_key';
  if (/^must be (string|number|integer|boolean|object|array|null)\b/.test(text))
    return 'invalid_type';
  if (text.startsWith('must be equal to')) return 'invalid_value';
  if (/^must (NOT have (more|fewer)|have (more|fewer)|be [<>]=?)/.test(text)) return 'out_of_range';
  if (text.startsWith('must match')) return 'invalid_format';
  return 'invalid';
}

function toField(segments: readonly string[]): string {
  if (segments.length === 0) return '(root)';
  const field = segments.join('.');
  // A model-chosen key could carry an injected instruction or a secret into an error line.
  return /^[A-Za-z0-9_.-]{1,128}$/.test(field) ? field : '(unprintable field)';
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
