import type { DurableMediaPart } from './tool-host.js';

// Module-private key: nothing outside the registry can build or read an envelope by hand.
const MEDIA_ENVELOPE: unique symbol = Symbol('toolhost.media-envelope');

/** A dispatcher's answer that pairs an ordinary result with handle-only media parts. */
export interface MediaEnvelope<R> {
  readonly [MEDIA_ENVELOPE]: { readonly result: R; readonly parts: readonly DurableMediaPart[] };
}

/** Wraps a result with media parts; the registry splits them off at the dispatch boundary. */
export function withMedia<R>(result: R, parts: readonly DurableMediaPart[]): MediaEnvelope<R> {
  return Object.freeze({ [MEDIA_ENVELOPE]: { result, parts: Object.freeze([...parts]) } });
}

/** Splits an envelope into the plain result and its parts; any other value passes through. */
export function splitMedia(value: unknown): {
  readonly result: unknown;
  readonly parts?: readonly DurableMediaPart[];
} {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, MEDIA_ENVELOPE)) {
    const envelope = (value as MediaEnvelope<unknown>)[MEDIA_ENVELOPE];
    return { result: envelope.result, parts: envelope.parts };
  }
  return { result: value };
}
