// A loopback HTTP server that answers each request with the next recorded provider response, so
// the real SDK client runs end to end with no network.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the SDK made. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** A running replay server; `close()` in `afterEach`. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Options of a replay server. */
export interface ReplayServerOptions {
  /** Refuses a request body as the real API would: the message becomes a 400, nothing is replayed. */
  readonly validate?: (body: unknown) => string | undefined;
}

/** Starts a server on 127.0.0.1, port 0, replaying `responses` in order (then 500s). */
export async function startReplayServer(
  responses: readonly unknown[],
  options: ReplayServerOptions = {},
): Promise<ReplayServer> {
  let replayed = 0;
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: text === '' ? undefined : JSON.parse(text),
      });
      const body = requests.at(-1)?.body;
      const invalid = options.validate?.(body);
      if (invalid !== undefined) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'invalid_request_error', message: invalid },
          }),
        );
        return;
      }
      const next = responses[replayed];
      replayed += 1;
      response.writeHead(next === undefined ? 500 : 200, {
        'content-type': 'application/json',
        'request-id': `req_replay_${requests.length}`,
        'x-request-id': `req_replay_${requests.length}`,
      });
      response.end(
        JSON.stringify(
          next ?? { error: { type: 'api_error', message: 'no more recorded responses' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

/** Reads `recorded/<name>.json` under `base` (default: beside this file). */
export async function recorded(
  name: string,
  base: URL = new URL('./', import.meta.url),
): Promise<unknown> {
  return JSON.parse(await readFile(new URL(`recorded/${name}.json`, base), 'utf8'));
}
