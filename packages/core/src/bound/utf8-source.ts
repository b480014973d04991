/**
 * A text field's UTF-8 bytes as the host already holds them (a file it read), so a spill can
 * write them instead of encoding the text back. `bytes()` gives exactly `text`'s UTF-8, or
 * `undefined` when the host cannot vouch for that (bytes that decode with replacement); it is
 * asked only when a spill needs it, so a result that fits never pays for the check.
 */
export interface Utf8Source {
  readonly text: string;
  readonly bytes: () => Uint8Array | undefined;
}

// Non-enumerable under a symbol: JSON, spreads, `Object.keys`, state and events never see it.
const UTF8_SOURCE = Symbol('toolhost.utf8Source');

// Mutable so bounding can let the bytes go: a result kept in state must not hold its file twice.
interface Holder {
  readonly text: string;
  bytes: (() => Uint8Array | undefined) | undefined;
}

/** Marks `result` as carrying `source` until it is bounded; returns `result`. */
export function attachUtf8Source<T extends object>(result: T, source: Utf8Source): T {
  const holder: Holder = { text: source.text, bytes: source.bytes };
  Object.defineProperty(result, UTF8_SOURCE, { value: holder, enumerable: false });
  return result;
}

/** Carries `from`'s source (if any) over to `to`, a rebuilt copy of it; returns `to`. */
export function copyUtf8Source<T extends object>(from: object, to: T): T {
  const holder = holderOf(from);
  if (holder !== undefined) Object.defineProperty(to, UTF8_SOURCE, { value: holder });
  return to;
}

/**
 * The source `value` carries, handed over once: the result no longer holds the bytes after
 * this (bounding is their one reader). `undefined` for any other value.
 */
export function takeUtf8Source(value: object): Utf8Source | undefined {
  const holder = holderOf(value);
  const bytes = holder?.bytes;
  if (holder === undefined || bytes === undefined) return undefined;
  holder.bytes = undefined;
  return { text: holder.text, bytes };
}

function holderOf(value: object): Holder | undefined {
  return (value as { [UTF8_SOURCE]?: Holder })[UTF8_SOURCE];
}

/**
 * The bytes to spill for `body`: the source's when it is the very text they encode (an edited
 * or replaced body no longer is), else the body itself, encoded by the store.
 */
export function spillPartOf(body: string, source: Utf8Source | undefined): string | Uint8Array {
  if (source === undefined || source.text !== body) return body;
  const bytes = source.bytes();
  // UTF-8 never takes fewer bytes than UTF-16 units: a shorter array cannot be this text's.
  return bytes !== undefined && bytes.byteLength >= body.length ? bytes : body;
}
