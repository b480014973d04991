/**
 * Bytes of one request frame kept for everything but the largest string: the JSON-RPC envelope,
 * the tool name, `_meta` and the other (short) arguments.
 */
export const FRAME_ENVELOPE_BYTES = 64 * 1024;

// JSON.stringify's worst case per UTF-16 code unit: a control character as `\u001f`.
const MAX_BYTES_PER_CODE_UNIT = 6;

// The keywords whose values are schemas, or lists or maps of schemas (JSON Schema 2020-12).
const SUBSCHEMA = ['items', 'additionalProperties', 'not', 'propertyNames', 'contains'] as const;
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;

/** The longest string (UTF-16 code units) a request frame of `maxFrameBytes` always carries. */
export function maxStringLengthFor(maxFrameBytes: number): number {
  return Math.max(0, Math.floor((maxFrameBytes - FRAME_ENVELOPE_BYTES) / MAX_BYTES_PER_CODE_UNIT));
}

/**
 * A served `inputSchema` no larger than the transport carries: every string schema gets a
 * `maxLength` of at most `maxStringLengthFor(maxFrameBytes)`, so a client that keeps to the
 * schema never sends one string the frame cap refuses. Returns a copy; the input is untouched.
 */
export function fitSchemaToFrame<S extends Record<string, unknown>>(
  schema: S,
  maxFrameBytes: number,
): S {
  return fit(schema, maxStringLengthFor(maxFrameBytes)) as S;
}

function fit(node: unknown, limit: number): unknown {
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = { ...node };
  if (allowsString(node.type)) {
    const declared = node.maxLength;
    out.maxLength = typeof declared === 'number' && declared <= limit ? declared : limit;
  }
  for (const key of SUBSCHEMA) {
    if (key in node)
      out[key] = Array.isArray(node[key])
        ? node[key].map((item: unknown) => fit(item, limit))
        : fit(node[key], limit);
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) out[key] = list.map((item: unknown) => fit(item, limit));
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = node[key];
    if (isRecord(map)) {
      out[key] = Object.fromEntries(
        Object.entries(map).map(([name, value]) => [name, fit(value, limit)]),
      );
    }
  }
  return out;
}

// An untyped schema (`{}`, like mcp_call's `args`) cannot be bounded by a maxLength: a request
// past the cap through one is answered by the transport's frame error instead.
function allowsString(type: unknown): boolean {
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
