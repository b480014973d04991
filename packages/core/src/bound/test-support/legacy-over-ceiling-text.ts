import type { ToolResultLimits } from '../../dispatch-context.js';
import type { OverCeilingText } from '../bound-for-model.js';
import { countLines } from '../count-lines.js';
import { measureRendering, planRendering, renderForModel } from '../render-for-model.js';
import { utf8ByteLength } from '../utf8.js';

// `overCeilingText` as it was before sizes alone could settle a rendering (it built the head and
// rule and counted every byte of every result), kept verbatim: the equivalence test holds the
// new one to its answers.

const UNSERIALIZABLE = '[unserializable result]';

/** The reference `overCeilingText`. */
export function legacyOverCeilingText(
  value: unknown,
  limits: ToolResultLimits,
): OverCeilingText | undefined {
  if (typeof value === 'string') return fitsText(value, limits) ? undefined : { text: value };
  if (typeof value !== 'object' || value === null) return undefined;
  let rendering;
  try {
    rendering = planRendering(value);
  } catch {
    return { text: UNSERIALIZABLE };
  }
  if (rendering !== undefined) {
    const { lines, bytes } = measureRendering(rendering);
    return lines <= limits.maxLines && bytes <= limits.maxBytes
      ? undefined
      : { rendering, lines, bytes };
  }
  if (estimateJsonBytes(value, limits.maxBytes, 0) <= limits.maxBytes) return undefined;
  const json = safeStringify(value);
  if (json === undefined) return { text: UNSERIALIZABLE };
  if (json.length <= limits.maxBytes && utf8ByteLength(json) <= limits.maxBytes) return undefined;
  return renderForModel(value) ?? { text: UNSERIALIZABLE };
}

function fitsText(text: string, limits: ToolResultLimits): boolean {
  if (text.length * 3 <= limits.maxBytes && text.length < limits.maxLines) return true;
  if (text.length > limits.maxBytes) return false;
  return (
    countLines(text, limits.maxLines) <= limits.maxLines && utf8ByteLength(text) <= limits.maxBytes
  );
}

function estimateJsonBytes(value: unknown, budget: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'object':
      break;
    default:
      return 9;
  }
  if (value === null) return 4;
  if (depth > 32 || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return Number.POSITIVE_INFINITY;
  }
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += estimateJsonBytes(item, budget - total, depth + 1) + 1;
      if (total > budget) return Number.POSITIVE_INFINITY;
    }
    return total;
  }
  for (const key of Object.keys(value)) {
    total += key.length * 6 + 4;
    total += estimateJsonBytes((value as Record<string, unknown>)[key], budget - total, depth + 1);
    if (total > budget) return Number.POSITIVE_INFINITY;
  }
  return total;
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
