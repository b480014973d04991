import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  defineTool,
  ToolExecutionError,
  type ToolDispatchContext,
  type ToolRegistry,
} from '@toolhost/core';
import { redactLeaf } from '@toolhost/core/redact';
import { createNodeToolHost, type NodeToolHostHandle } from '@toolhost/node';
import { traceToolRegistry } from '@toolhost/otel';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { createConfirmHook } from '../../approval/create-confirm-hook.js';
import { openAuditLog } from '../../audit/audit-log.js';
import { withAudit } from '../../audit/with-audit.js';
import { ApprovalBroker } from '../../ui/approval-broker.js';
import { loopbackRequest } from '../../ui/test-support/loopback-request.js';
import { UiEventHub } from '../../ui/ui-event-hub.js';
import { startUiServer } from '../../ui/ui-server.js';
import { UiSessionTable } from '../../ui/ui-session-table.js';
import { withUiEvents } from '../../ui/with-ui-events.js';
import { plantedFileText, plantedValue, type PlantedSecret } from './planted-secret.js';

/** What one sink showed, by name: everything a reader of that sink could see. */
export type SinkTexts = Readonly<Record<string, string>>;

/** A real host, tracer and temp dir shared by every run of the property. */
export interface SinkEnvironment {
  readonly handle: NodeToolHostHandle;
  readonly root: string;
  readonly stateDir: string;
  readonly base: string;
  readonly exporter: InMemorySpanExporter;
  readonly provider: BasicTracerProvider;
  close(): Promise<void>;
}

export async function openSinkEnvironment(): Promise<SinkEnvironment> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-sinks-')));
  const root = path.join(base, 'root');
  const stateDir = path.join(base, 'state');
  await mkdir(root);
  const handle = await createNodeToolHost({ root, stateDir, fsScope: 'project' });
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    handle,
    root,
    stateDir,
    base,
    exporter,
    provider,
    close: async () => {
      await provider.shutdown();
      await handle.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

// A tool that takes the planted value as its argument and gives it back as its result, and one
// whose host reason carries it (a host breaking the "short code" contract).
const ECHO = defineTool({
  id: 'echo_back',
  description: 'gives its data back',
  args: z.strictObject({ data: z.unknown() }),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async (args) => args.data,
});

const FAIL = defineTool({
  id: 'fail_with',
  description: 'fails with its text as the reason',
  args: z.strictObject({ text: z.string() }),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async (args) => {
    throw new ToolExecutionError('fail_with', args.text);
  },
});

/**
 * Plants the secret everywhere a model or a tool can put it, through a registry wrapped as a
 * served session is (page events, audit log, tracing with both opt-ins), and reads every sink
 * back through its real surface: the page over HTTP, the audit log from disk, spans from the
 * exporter, projections and error messages from the dispatch itself.
 */
export async function runEverySink(
  env: SinkEnvironment,
  planted: PlantedSecret,
  runIndex: number,
): Promise<SinkTexts> {
  const value = plantedValue(planted);
  const text = planted.text;
  await writeFile(path.join(env.root, 'keys.txt'), plantedFileText(planted));
  const hub = new UiEventHub();
  const sessions = new UiSessionTable();
  const session = sessions.open('s1', path.join(env.stateDir, `spill-${runIndex}`));
  const broker = new ApprovalBroker({ timeoutMs: 60_000 });
  const auditFile = path.join(env.base, `audit-${runIndex}.jsonl`);
  const audit = openAuditLog({ file: auditFile, runId: 'sinks', scrub: redactLeaf });
  const engine = createToolRegistry({
    tools: [...BUILTIN_TOOLS, ECHO, FAIL],
    host: env.handle.host,
  });
  const paged = withUiEvents(engine, {
    hub,
    sessionId: 's1',
    recordSpill: (spill) => session.recordSpill(spill),
  });
  const registry: ToolRegistry = traceToolRegistry(withAudit(paged, audit), {
    tracer: env.provider.getTracer('sinks'),
    recordArguments: true,
    recordResults: true,
  });
  const server = await startUiServer({ hub, sessions, broker, policy: { sections: [] } });
  const auth = { authorization: `Bearer ${new URL(server.url).searchParams.get('token') ?? ''}` };
  const ctx: ToolDispatchContext = {
    nodeId: 'sinks',
    grantedToolIds: new Set(['echo_back', 'fail_with', 'read_file', 'write_file']),
    config: {},
    toolPolicy: {},
    fsScope: 'project',
    gateApproved: false,
    limits: { maxBytes: 4096, maxLines: 40 },
    approval: {
      confirm: createConfirmHook({
        mode: 'accept-edits',
        paths: { root: env.root, stateDir: env.stateDir, files: [] },
        prompter: broker.prompterFor('s1'),
      }),
    },
  };
  const projections: unknown[] = [];
  const errors: string[] = [];
  const dispatch = async (name: string, args: unknown, id = `${runIndex}`): Promise<void> => {
    try {
      const outcome = await registry.dispatch({ id, name, args }, ctx);
      projections.push(outcome.events);
    } catch (error) {
      // A host's own reason is the host's text; every other message is toolhost's.
      if (name !== 'fail_with') errors.push(String((error as Error).message));
    }
  };
  const pageApprovals: string[] = [];
  try {
    await dispatch('echo_back', { data: value });
    await dispatch('read_file', { path: 'keys.txt' });
    await dispatch('fail_with', { text });
    // The call id is the model's (or its provider's) text too.
    await dispatch('echo_back', { data: 1 }, text);
    await dispatch(text, { data: 1 });
    await dispatch(planted.shape.text, { data: 1 });
    await dispatch('echo_back', { data: 1, [text]: 1, nested: { [planted.shape.text]: 1 } });
    await dispatch('read_file', { path: `missing/${planted.shape.text}` });
    // A write the page is asked about (the preview) and a person denies, saying why.
    const writing = dispatch('write_file', { path: 'out.txt', content: text });
    const asked = await waitFor(() => broker.pending()[0]);
    pageApprovals.push(
      (await loopbackRequest(server.port, '/api/approvals', { headers: auth })).body,
    );
    broker.decide(asked.id, { choice: 'deny', reason: `no: ${text}` });
    await writing;
    // A result too long for the model was spilled: the page's spill view reads it from disk.
    const spills = hub
      .recent()
      .flatMap((event) => (event.step === 'result' && event.spill ? [event.spill.id] : []))
      .map((id) => `/api/sessions/s1/spills/${id}`);
    const page = await Promise.all(
      ['/api/timeline', '/api/sessions', '/api/approvals', '/events', ...spills].map(
        async (target) => {
          const answer = await loopbackRequest(server.port, target, {
            headers: auth,
            readMs: target === '/events' ? 100 : undefined,
          });
          return [target, answer.body] as const;
        },
      ),
    );
    audit.close();
    const spans = env.exporter.getFinishedSpans().map(spanText).join('\n');
    env.exporter.reset();
    return {
      'events (toolInput, outputSummary)': JSON.stringify(projections),
      'error messages': errors.join('\n'),
      'audit log file': await readFile(auditFile, 'utf8'),
      'page /api/approvals while pending': pageApprovals.join('\n'),
      ...Object.fromEntries(page.map(([target, body]) => [`page ${target}`, body])),
      'span attributes, events and status': spans,
    };
  } finally {
    audit.close();
    broker.close();
    await server.close();
    session.close();
    await rm(auditFile, { force: true });
  }
}

async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const found = probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error('nothing arrived in time');
}

function spanText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    status: span.status,
  });
}
