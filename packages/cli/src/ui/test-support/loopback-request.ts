import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** One answered request: status, headers and the body as text. */
export interface LoopbackResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A real HTTP request to 127.0.0.1 with exactly the headers given (node:http, unlike fetch, lets a
 * test set `Host`). `readMs` ends a streaming body after that long and returns what arrived.
 */
export function loopbackRequest(
  port: number,
  target: string,
  options: {
    readonly method?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly readMs?: number | undefined;
  } = {},
): Promise<LoopbackResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        let body = '';
        const done = () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.once('end', done);
        if (options.readMs !== undefined) {
          setTimeout(() => {
            response.destroy();
            done();
          }, options.readMs);
        }
      },
    );
    outgoing.once('error', reject);
    outgoing.end(options.body);
  });
}
