import { SpanKind } from '@opentelemetry/api';
import { createToolRegistry } from '@toolhost/core';
import { readFileTool } from '@toolhost/core/tools';
import { createNodeToolHost } from '@toolhost/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  OtlpPackageMissingError,
  otlpTracingRequested,
  startOtlpTracing,
  type OtlpPackage,
} from './otlp.js';
import { traceToolRegistry } from './trace-tool-registry.js';
import { startOtlpReceiver, type OtlpReceiver } from './test-support/otlp-receiver.js';
import { createTempRoot } from './test-support/traced-setup.js';
import { grantContext } from './test-support/traced-registry.js';

describe('startOtlpTracing', () => {
  let receiver: OtlpReceiver;
  let workspace: Awaited<ReturnType<typeof createTempRoot>>;

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
    workspace = await createTempRoot();
  });
  afterEach(async () => {
    await receiver.close();
    await workspace.cleanup();
  });

  const readOnce = async (options: Parameters<typeof startOtlpTracing>[0]) => {
    const tracing = await startOtlpTracing(options);
    const handle = await createNodeToolHost({ root: workspace.root, stateDir: workspace.stateDir });
    try {
      const registry = createToolRegistry({ tools: [readFileTool], host: handle.host });
      await traceToolRegistry(registry, { tracer: tracing.tracer }).dispatch(
        { id: 'call_otlp', name: 'read_file', args: { path: 'notes.txt' } },
        grantContext(['read_file']),
      );
    } finally {
      await handle.close();
      await tracing.shutdown();
    }
  };

  it('exports the span over OTLP/HTTP by shutdown, as service toolhost', async () => {
    await readOnce({ url: `${receiver.endpoint}/v1/traces`, env: {} });

    expect(receiver.spans).toHaveLength(1);
    expect(receiver.spans[0]).toMatchObject({
      name: 'execute_tool read_file',
      // OTLP numbers kinds from 1 (SPAN_KIND_INTERNAL); the API from 0.
      kind: SpanKind.INTERNAL + 1,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'read_file',
        'gen_ai.tool.call.id': 'call_otlp',
        'gen_ai.tool.type': 'function',
      },
      resource: { 'service.name': 'toolhost' },
    });
  });

  it('takes service.name from OTEL_SERVICE_NAME', async () => {
    await readOnce({
      url: `${receiver.endpoint}/v1/traces`,
      env: { OTEL_SERVICE_NAME: 'agent-7' },
    });

    expect(receiver.spans[0]?.resource['service.name']).toBe('agent-7');
  });

  it('shuts down once, however often asked', async () => {
    const tracing = await startOtlpTracing({ url: `${receiver.endpoint}/v1/traces`, env: {} });

    await Promise.all([tracing.shutdown(), tracing.shutdown()]);

    await expect(tracing.shutdown()).resolves.toBeUndefined();
  });
});

describe('otlpTracingRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, true],
  ])('reads %o as %s', (env, expected) => {
    expect(otlpTracingRequested(env)).toBe(expected);
  });
});

describe('OtlpPackageMissingError', () => {
  it.each<OtlpPackage>([
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
  ])('names %s and how to fix it, with no path', (name) => {
    const error = new OtlpPackageMissingError(name);

    expect(error).toMatchObject({ code: 'otlp_package_missing', name: 'OtlpPackageMissingError' });
    expect(error.message).toContain(`npm install ${name}`);
    expect(error.message).not.toMatch(/node_modules|\/tmp\/|\/work\//u);
  });
});
