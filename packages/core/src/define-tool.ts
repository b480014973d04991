import { z } from 'zod';
import { compileArgsFastPath } from './args-fast-path.js';
import { recordArgsSchema } from './args-schema-of.js';
import { ToolArgsInvalidError, type ToolArgsIssue } from './errors.js';
import type { ToolDispatchContext } from './dispatch-context.js';
import { redactText } from './redact/redact-text.js';
import type { JsonSchema, PolicyTarget, ToolDef, ToolId, ToolPolicyClass } from './tool-def.js';
import type { ToolHost } from './tool-host.js';

/** What `defineTool` needs: a strict zod object as the single source of the parameter shape. */
export interface DefineToolInput<Shape extends z.ZodRawShape, Result> {
  readonly id: ToolId;
  readonly source?: ToolDef['source'];
  readonly description: string;
  /** Use `z.strictObject` so unknown keys fail validation. */
  readonly args: z.ZodObject<Shape>;
  /** Keys set only from `ctx.config.parameters`; excluded from `llmVisibleParams`. */
  readonly configOnlyParams?: readonly (keyof Shape & string)[];
  readonly policy: ToolPolicyClass;
  readonly policyTarget?: (args: z.output<z.ZodObject<Shape>>) => PolicyTarget;
  readonly dispatch: (
    args: z.output<z.ZodObject<Shape>>,
    host: ToolHost,
    ctx: ToolDispatchContext,
  ) => Promise<Result>;
}

/** Builds a `ToolDef` from a zod schema: `parseArgs` and `llmVisibleParams` are derived, never hand-kept. */
export function defineTool<Shape extends z.ZodRawShape, Result>(
  input: DefineToolInput<Shape, Result>,
): ToolDef<z.output<z.ZodObject<Shape>>, Result> {
  const { id, args: schema, configOnlyParams = [], policyTarget } = input;
  // A built-in's JSON Schema is derived on first read: a CLI call or a dispatch never lowers, and
  // deriving all of them at import was a tenth of a `toolhost call` start (every built-in is
  // lowered in this package's tests). Anyone else's tool is derived now, so a parameter with no
  // JSON Schema form fails where the tool is defined. Memoised: every reader gets one object.
  let llmVisibleParams =
    input.source === 'builtin' ? undefined : toLlmVisibleParams(schema, configOnlyParams);
  // A plain argument set is checked by a validator compiled from the schema; zod decides the rest.
  const fastPath = compileArgsFastPath(schema);
  const def: ToolDef<z.output<z.ZodObject<Shape>>, Result> = {
    id,
    source: input.source ?? 'plugin',
    description: input.description,
    get llmVisibleParams() {
      llmVisibleParams ??= toLlmVisibleParams(schema, configOnlyParams);
      return llmVisibleParams;
    },
    configOnlyParams: Object.freeze([...configOnlyParams]),
    policy: Object.freeze({ ...input.policy }),
    parseArgs(raw: unknown) {
      const quick = fastPath?.(raw);
      if (quick !== undefined) return quick as z.output<z.ZodObject<Shape>>;
      const parsed = schema.safeParse(raw);
      if (parsed.success) return parsed.data;
      throw new ToolArgsInvalidError(id, toArgsIssues(parsed.error));
    },
    dispatch: (args, host, ctx) => input.dispatch(args, host, ctx),
    ...(policyTarget === undefined ? {} : { policyTarget: (args) => policyTarget(args) }),
  };
  // Dispatch reads the real parameter keys from the schema, not the derived JSON Schema.
  return recordArgsSchema(Object.freeze(def), schema);
}

/** zod issues → field paths and problem codes; the offending value never leaves. */
export function toArgsIssues(error: z.ZodError): ToolArgsIssue[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(printableSegment).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        // The key is model-chosen text: echo it only when it is plainly an identifier and no
        // secret shape (`ghp_…` is an identifier too).
        const name =
          /^[A-Za-z0-9_$-]{1,64}$/.test(key) && redactText(key) === key
            ? key
            : '(unrecognized key)';
        return { field: base === '' ? name : `${base}.${name}`, problem: 'unrecognized_key' };
      });
    }
    return [{ field: base === '' ? '(root)' : base, problem: issue.code }];
  });
}

// A record's keys (`headers`, `env`) are model-chosen text on the path too: a segment is echoed
// only when it is one short token, so no payload, line break or fake `field (problem)` rides along.
function printableSegment(step: PropertyKey): string {
  const segment = String(step);
  return /^[\x21-\x7e]{1,64}$/.test(segment) &&
    !/[.,()]/.test(segment) &&
    redactText(segment) === segment
    ? segment
    : '(key)';
}

function toLlmVisibleParams(
  schema: z.ZodObject<z.ZodRawShape>,
  configOnlyParams: readonly string[],
): JsonSchema {
  const hidden = Object.fromEntries(configOnlyParams.map((key) => [key, true] as const));
  const visible = configOnlyParams.length === 0 ? schema : schema.omit(hidden);
  const jsonSchema = z.toJSONSchema(visible, { io: 'input', unrepresentable: 'throw' });
  const { $schema: _dialect, ...rest } = jsonSchema as Record<string, unknown>;
  // A model may only send what the tool declares, whatever the schema's own unknown-key mode.
  return deepFreeze({ ...rest, additionalProperties: false });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
