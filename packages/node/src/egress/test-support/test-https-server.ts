import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

import type { DialTarget } from '../create-pinned-dispatcher.js';
import type { TestCertificate } from './test-certificate.js';

/** Handles one request; the default answers 200 `ok`. */
export type TestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** A real HTTPS server on 127.0.0.1, port 0, with a swappable handler. */
export interface TestHttpsServer {
  readonly port: number;
  readonly server: Server;
  handler: TestHandler;
  /** Every request the server saw, in order. */
  readonly seen: IncomingMessage[];
  /** TLS connections accepted so far. */
  readonly connections: () => number;
  /** A `dialTcp` that records each validated target and connects to this server instead. */
  dialToHere(dials: DialTarget[]): (target: DialTarget) => Socket;
  close(): Promise<void>;
}

/** Starts the server; close it in `afterAll`. */
export async function startTestHttpsServer(certificate: TestCertificate): Promise<TestHttpsServer> {
  const seen: IncomingMessage[] = [];
  const state: { handler: TestHandler } = {
    handler: (_request, response) => response.end('ok'),
  };
  const server = createServer(
    { key: certificate.key, cert: certificate.cert },
    (request, response) => {
      seen.push(request);
      state.handler(request, response);
    },
  );
  let connections = 0;
  server.on('secureConnection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    server,
    seen,
    connections: () => connections,
    get handler() {
      return state.handler;
    },
    set handler(handler: TestHandler) {
      state.handler = handler;
    },
    dialToHere: (dials) => (target) => {
      dials.push(target);
      return connect({ host: '127.0.0.1', port });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
