import { joinRendering, planRendering } from './render-for-model.js';

/**
 * The text a model is shown for a tool result, the one thing every adapter hands its provider:
 * a string as is; a plain object with bulk text as its rendering (its small fields as indented
 * JSON, each bulk text field raw under a header line); anything else as compact JSON. Bounding
 * measures exactly this text, so a result that fits is within `maxBytes` and `maxLines` as shown.
 */
export function toModelText(result: unknown): string {
  if (typeof result === 'string') return result;
  try {
    const rendering =
      typeof result === 'object' && result !== null ? planRendering(result) : undefined;
    if (rendering !== undefined) return joinRendering(rendering);
    return JSON.stringify(result) ?? 'null';
  } catch {
    // A cycle or a BigInt never survives bounding; this only guards a hand-built result.
    return '[unserializable result]';
  }
}
