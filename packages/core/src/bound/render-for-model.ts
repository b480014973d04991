import { countLines } from './count-lines.js';

/**
 * The text an over-ceiling structured result is previewed and spilled as. A result's bulk is
 * almost always one long string field (`content`, `stdout`, `body`): JSON would escape every
 * newline into one unpageable line, so such fields become raw `===== key =====` sections after
 * the remaining fields as indented JSON. The spill then pages by real lines with `read_file`.
 * Returns `undefined` when the value cannot be serialised (a cycle, a BigInt).
 */
export function renderForModel(value: object): RenderedText | undefined {
  if (Array.isArray(value) || !isPlainObject(value)) {
    const text = stringify(value);
    return text === undefined ? undefined : { text };
  }
  const rest: Record<string, unknown> = {};
  const sections: string[] = [];
  let sectionLines = 0;
  let bulkLength = 0;
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string' && isBulkText(field)) {
      sections.push(`===== ${key} =====\n${field}`);
      bulkLength += field.length;
      // Counted on the flat field: the same scan over the joined text is ~5x slower in V8.
      sectionLines += 1 + countLines(field, Number.POSITIVE_INFINITY);
    } else {
      rest[key] = field;
    }
  }
  const head = stringify(rest);
  if (head === undefined) return undefined;
  if (sections.length === 0) return { text: head };
  return {
    text: `${head}\n${sections.join('\n')}`,
    lines: countLines(head, Number.POSITIVE_INFINITY) + sectionLines,
    bulkLength,
  };
}

/** A rendering and, when it was cheap to know, its line count. */
export interface RenderedText {
  readonly text: string;
  readonly lines?: number;
  /** UTF-16 length of the raw section strings: the compact JSON holds each at least whole. */
  readonly bulkLength?: number;
}

// Only text worth reading raw: a multi-line or long string. Short scalars stay in the JSON head.
function isBulkText(text: string): boolean {
  return text.length > 256 || text.includes('\n');
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return (
    (prototype === Object.prototype || prototype === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    // A cycle or a BigInt: the caller gives the model a fixed note instead of a crash.
    return undefined;
  }
}
