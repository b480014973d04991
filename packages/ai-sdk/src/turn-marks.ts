// Why a tool-error is in a step: AI SDK turns every `execute` throw into a `tool-error` part and
// shows its message to the model. These marks let the stop condition tell a fed-back correction
// from a failure that ends the turn, without parsing messages.
const turnEnding = new WeakSet<object>();

/** A fed-back failure: its message is the secret-free text the model sees. */
export class ToolCallFeedbackError extends Error {
  override readonly name = 'ToolCallFeedbackError';
  constructor(
    text: string,
    /** The typed toolhost error the text was made from. */
    readonly toolError: Error,
  ) {
    super(text);
  }

  // ai@6 shows the model `error.message`, ai@7 `error.toString()`: both must read the text alone.
  override toString(): string {
    return this.message;
  }
}

/** Marks `error` as ending the turn and returns it, for `throw markTurnEnding(error)`. */
export function markTurnEnding(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) turnEnding.add(error);
  return error;
}

/** True for an error an adapter tool threw to end the turn. */
export function isTurnEnding(error: unknown): boolean {
  return typeof error === 'object' && error !== null && turnEnding.has(error);
}
