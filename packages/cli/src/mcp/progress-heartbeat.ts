import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/**
 * How often a call the client asked progress for says it is still running. Under the SDK
 * client's default 60 s timeout and the short ones agents set with `resetTimeoutOnProgress`.
 */
export const DEFAULT_PROGRESS_INTERVAL_MS = 1000;

/**
 * Sends `notifications/progress` every `intervalMs` while a `tools/call` whose request carries
 * `_meta.progressToken` waits for a slot or runs, so a client resetting its timeout on progress
 * keeps waiting for a long `run_command` or read; a call that ends sooner sends none. toolhost's
 * tools report no fraction of their work, so `progress` counts the ticks (it only ever grows)
 * and no `total` is claimed. Returns the stop function; call it before answering.
 */
export function startProgressHeartbeat(
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  toolName: string,
  intervalMs: number = DEFAULT_PROGRESS_INTERVAL_MS,
): () => void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  const started = Date.now();
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
    const seconds = Math.round((Date.now() - started) / 1000);
    // Best effort: a closed stream only means nobody is listening for this call any more.
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress: ticks,
          message: `${toolName}: running for ${seconds} s`,
        },
      })
      .catch(() => undefined);
  }, intervalMs);
  // A heartbeat never keeps the process alive on its own.
  timer.unref();
  return () => clearInterval(timer);
}
