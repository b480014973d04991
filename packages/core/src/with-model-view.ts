// Module-private key: nothing outside the registry can build or read an envelope by hand.
const MODEL_VIEW_ENVELOPE: unique symbol = Symbol('toolhost.model-view-envelope');

/**
 * A dispatcher's answer that pairs its full result (workflow state, `output_mapping`) with the
 * text the model is shown instead, when the result's JSON would waste the model's result bound.
 */
export interface ModelViewEnvelope<R> {
  readonly [MODEL_VIEW_ENVELOPE]: { readonly result: R; readonly modelView: string };
}

/** Wraps a result with its model-facing text; the registry splits them at the dispatch boundary. */
export function withModelView<R>(result: R, modelView: string): ModelViewEnvelope<R> {
  return Object.freeze({ [MODEL_VIEW_ENVELOPE]: { result, modelView } });
}

/**
 * Splits an envelope into the full result and what the model sees (then bounded like any
 * result); any other value is both.
 */
export function splitModelView(value: unknown): {
  readonly result: unknown;
  readonly modelView: unknown;
} {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, MODEL_VIEW_ENVELOPE)) {
    const envelope = (value as ModelViewEnvelope<unknown>)[MODEL_VIEW_ENVELOPE];
    return { result: envelope.result, modelView: envelope.modelView };
  }
  return { result: value, modelView: value };
}
