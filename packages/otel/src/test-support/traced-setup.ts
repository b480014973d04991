import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { context } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { AsyncLocalContextManager } from './async-local-context-manager.js';

/** An SDK pipeline whose ended spans stay in memory, and the async context it needs. */
export interface MemoryTracing {
  readonly provider: BasicTracerProvider;
  readonly exporter: InMemorySpanExporter;
  /** Every ended span, in end order. */
  spans(): readonly ReadableSpan[];
  shutdown(): Promise<void>;
}

/** A provider with a `SimpleSpanProcessor` into an `InMemorySpanExporter` (not made global). */
export function startMemoryTracing(): MemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const manager = new AsyncLocalContextManager();
  context.setGlobalContextManager(manager);
  return {
    provider,
    exporter,
    spans: () => exporter.getFinishedSpans(),
    shutdown: async () => {
      await provider.shutdown();
      context.disable();
    },
  };
}

/** Everything a span recorded, as one string: what a "never appears" assertion searches. */
export function spanText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    status: span.status,
  });
}

/** A temp host root (real path) with a `notes.txt` in it, and a state dir beside it. */
export async function createTempRoot(): Promise<{
  root: string;
  stateDir: string;
  cleanup(): Promise<void>;
}> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-otel-')));
  const root = path.join(base, 'root');
  await mkdir(root);
  await writeFile(path.join(root, 'notes.txt'), 'hello from notes\n');
  return {
    root,
    stateDir: path.join(base, 'state'),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}
