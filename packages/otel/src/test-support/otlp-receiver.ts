import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as OTLP/JSON carries it, with its resource's attributes beside it. */
export interface ReceivedSpan {
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly status: { readonly code?: number; readonly message?: string };
  readonly resource: Readonly<Record<string, unknown>>;
  /** The raw JSON body it arrived in: what a "never sent" assertion searches. */
  readonly body: string;
}

/** A real OTLP/HTTP receiver on 127.0.0.1: it collects every `POST /v1/traces` JSON body. */
export interface OtlpReceiver {
  /** The base endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`), without `/v1/traces`. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  readonly bodies: string[];
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (request.method === 'POST' && request.url === '/v1/traces') {
        bodies.push(body);
        spans.push(...parseSpans(body));
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface OtlpKeyValue {
  readonly key: string;
  readonly value: Readonly<Record<string, unknown>>;
}

interface OtlpJson {
  readonly resourceSpans?: readonly {
    readonly resource?: { readonly attributes?: readonly OtlpKeyValue[] };
    readonly scopeSpans?: readonly {
      readonly spans?: readonly {
        readonly name: string;
        readonly kind: number;
        readonly attributes?: readonly OtlpKeyValue[];
        readonly status?: { readonly code?: number; readonly message?: string };
      }[];
    }[];
  }[];
}

function parseSpans(body: string): ReceivedSpan[] {
  const parsed = JSON.parse(body) as OtlpJson;
  return (parsed.resourceSpans ?? []).flatMap((resourceSpan) => {
    const resource = flatten(resourceSpan.resource?.attributes);
    return (resourceSpan.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: span.name,
        kind: span.kind,
        attributes: flatten(span.attributes),
        status: span.status ?? {},
        resource,
        body,
      })),
    );
  });
}

// `{ key, value: { stringValue } }` → `{ key: value }`, whatever the value's type field.
function flatten(attributes: readonly OtlpKeyValue[] | undefined): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) flat[key] = Object.values(value)[0];
  return flat;
}
