import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { recoverRequestId } from './recover-request-id.js';

/**
 * Longest newline-delimited JSON-RPC message `toolhost serve` takes over stdio, in bytes. Every
 * string the served schemas allow fits in one at its maxLength, JSON-escaped at worst
 * (`fitSchemaToFrame`); a longer frame is refused with an error, never a dead server.
 */
export const MAX_STDIO_FRAME_BYTES = 64 * 1024 * 1024;

// How much of a refused frame's start and end is kept to find its id: the SDK client writes
// `id` last, other clients first; neither needs more than a short window.
const ID_WINDOW_BYTES = 1024;

/** Options of `StdioFrameTransport`. */
export interface StdioFrameTransportOptions {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** Defaults to `MAX_STDIO_FRAME_BYTES`. */
  readonly maxFrameBytes?: number;
  /** One line about each frame that could not be taken (never its content). */
  readonly warn?: (line: string) => void;
}

/**
 * The stdio transport of `toolhost serve`: newline-delimited JSON-RPC like the SDK's, but a frame
 * over the cap (which the SDK's transport answers by closing, so the server exits silently) is
 * discarded as it streams in, answered with a JSON-RPC error when its id can be recovered, and
 * said on stderr; the next frame is read as usual. Chunks are kept as a list and joined once per
 * frame, so a large frame costs one copy instead of one per chunk.
 */
export class StdioFrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxFrameBytes: number;
  readonly #warn: (line: string) => void;
  #chunks: Buffer[] = [];
  #size = 0;
  // Set while a frame over the cap streams past: its first bytes and a rolling tail.
  #refused: { head: Buffer; tail: Buffer; size: number } | undefined;
  #started = false;
  #closed = false;

  constructor(options: StdioFrameTransportOptions) {
    this.#stdin = options.stdin;
    this.#stdout = options.stdout;
    this.#maxFrameBytes = options.maxFrameBytes ?? MAX_STDIO_FRAME_BYTES;
    if (!Number.isSafeInteger(this.#maxFrameBytes) || this.#maxFrameBytes < 1)
      throw new TypeError('toolhost: maxFrameBytes must be a positive integer');
    this.#warn = options.warn ?? (() => undefined);
  }

  start(): Promise<void> {
    if (this.#started) throw new Error('toolhost: the stdio transport is already started');
    this.#started = true;
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onStreamError);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#chunks = [];
    this.#refused = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  readonly #onStreamError = (error: Error): void => this.onerror?.(error);

  readonly #onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (rest.length > 0 && !this.#closed) {
      const newline = rest.indexOf(0x0a);
      const part = newline === -1 ? rest : rest.subarray(0, newline);
      this.#take(part);
      if (newline === -1) return;
      this.#endFrame();
      rest = rest.subarray(newline + 1);
    }
  };

  #take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#refused !== undefined) {
      this.#refused.size += part.length;
      this.#refused.tail = lastBytes(this.#refused.tail, part);
      return;
    }
    if (this.#size + part.length <= this.#maxFrameBytes) {
      this.#chunks.push(part);
      this.#size += part.length;
      return;
    }
    // Over the cap: keep only what can name the request, drop the rest as it arrives.
    const parts = [...this.#chunks, part];
    this.#refused = {
      head: edgeBytes(parts, 'head'),
      tail: edgeBytes(parts, 'tail'),
      size: this.#size + part.length,
    };
    this.#chunks = [];
    this.#size = 0;
  }

  #endFrame(): void {
    const refused = this.#refused;
    if (refused !== undefined) {
      this.#refused = undefined;
      this.#refuse(refused);
      return;
    }
    const chunks = this.#chunks;
    this.#chunks = [];
    this.#size = 0;
    if (chunks.length === 0) return;
    const frame = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    let message: unknown;
    try {
      // A CRLF client's `\r` is JSON whitespace: JSON.parse ignores it.
      message = JSON.parse(frame.toString('utf8'));
    } catch {
      message = undefined;
    }
    // Only the envelope here: the SDK's Protocol checks each message against the exact request,
    // response or notification schema before acting on it; parsing the whole union here as well
    // (as the SDK's transport does) would validate every message twice.
    if (!isJsonRpcEnvelope(message)) {
      this.#warn(`dropped a ${frame.length}-byte stdio frame that is not a JSON-RPC message`);
      this.onerror?.(new Error('toolhost: a stdio frame is not a JSON-RPC message'));
      return;
    }
    this.onmessage?.(message);
  }

  #refuse(refused: { head: Buffer; tail: Buffer; size: number }): void {
    const id = recoverRequestId(refused.head.toString('utf8'), refused.tail.toString('utf8'));
    const over = `over the ${this.#maxFrameBytes}-byte stdio frame cap`;
    if (id === undefined) {
      this.#warn(`dropped a ${refused.size}-byte frame ${over} (no request id to answer)`);
      return;
    }
    this.#warn(`refused a ${refused.size}-byte request ${over}; answered it with an error`);
    void this.send(frameTooLarge(id, refused.size, this.#maxFrameBytes));
  }
}

function frameTooLarge(id: RequestId, frameBytes: number, maxFrameBytes: number): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: ErrorCode.InvalidRequest,
      message: `request too large: ${frameBytes} bytes, over toolhost serve's ${maxFrameBytes}-byte stdio frame cap; nothing ran`,
      data: { frameBytes, maxFrameBytes },
    },
  };
}

function isJsonRpcEnvelope(value: unknown): value is JSONRPCMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { jsonrpc?: unknown }).jsonrpc === '2.0'
  );
}

// The first or last ID_WINDOW_BYTES of a frame held as parts, copied without joining it all.
function edgeBytes(parts: readonly Buffer[], edge: 'head' | 'tail'): Buffer {
  const taken: Buffer[] = [];
  let size = 0;
  const ordered = edge === 'head' ? parts : [...parts].reverse();
  for (const part of ordered) {
    if (size >= ID_WINDOW_BYTES) break;
    taken.push(part);
    size += part.length;
  }
  const joined = Buffer.concat(edge === 'head' ? taken : taken.reverse());
  return Buffer.from(
    edge === 'head' ? joined.subarray(0, ID_WINDOW_BYTES) : joined.subarray(-ID_WINDOW_BYTES),
  );
}

function lastBytes(tail: Buffer, part: Buffer): Buffer {
  if (part.length >= ID_WINDOW_BYTES) return Buffer.from(part.subarray(-ID_WINDOW_BYTES));
  const joined = Buffer.concat([tail, part]);
  return joined.length <= ID_WINDOW_BYTES ? joined : joined.subarray(-ID_WINDOW_BYTES);
}
