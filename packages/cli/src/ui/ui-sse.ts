/** Frames one client may have queued before it is judged too slow and dropped. */
export const MAX_SSE_BACKLOG = 256;
/** A comment line this often keeps idle proxies and the browser from giving up on the stream. */
export const SSE_HEARTBEAT_MS = 15_000;

/** One open event stream: `send` queues a frame, never waits; `close` ends it. */
export interface SseChannel {
  send(event: string, data: unknown, id?: number): void;
  close(): void;
}

/**
 * A `text/event-stream` body whose queue is bounded: a client that reads slower than events come
 * is dropped once `MAX_SSE_BACKLOG` frames wait (the browser's EventSource reconnects and resumes
 * from its last id), so a stalled page never makes the server buffer without bound.
 */
export function openSseStream(
  onOpen: (channel: SseChannel) => void,
  onClose: () => void,
  onTooSlow: () => void,
  maxBacklog: number = MAX_SSE_BACKLOG,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    onClose();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const enqueue = (frame: string) => {
          if (closed) return;
          if ((controller.desiredSize ?? 0) <= -maxBacklog) {
            // Its connection is cut, which cancels this stream and discards the queue.
            finish();
            onTooSlow();
            return;
          }
          controller.enqueue(encoder.encode(frame));
        };
        heartbeat = setInterval(() => enqueue(': ping\n\n'), SSE_HEARTBEAT_MS);
        heartbeat.unref();
        onOpen({
          send: (event, data, id) =>
            enqueue(
              `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
            ),
          close: () => {
            if (closed) return;
            finish();
            controller.close();
          },
        });
      },
      cancel: finish,
    },
    { highWaterMark: 1 },
  );
}
