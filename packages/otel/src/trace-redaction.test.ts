import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineTool, type ToolRegistry } from '@toolhost/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { traceToolRegistry, type TraceToolRegistryOptions } from './trace-tool-registry.js';
import { spanText } from './test-support/traced-setup.js';
import {
  createRealRegistry,
  grantContext,
  openProjectHost,
} from './test-support/traced-registry.js';
import { useTracedWorkspace } from './test-support/use-traced-workspace.js';

// Secret-shaped (what redaction recognises) and plain (what only hiding can keep out).
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
const AWS_KEY = 'AKIAQWERTYUIOPASDFGH';
const CONFIG_VALUE = 'plain-config-value-7f3a';

// A plugin with a config-only key: its value is set by the operator and never shown.
const signedEcho = defineTool({
  id: 'plugin_demo_signed_echo',
  description: 'echoes text, signed with a config-only key',
  args: z.strictObject({ text: z.string(), signingKey: z.string() }),
  configOnlyParams: ['signingKey'],
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  async dispatch(args) {
    return { echoed: args.text, signed: args.signingKey.length > 0 };
  },
});

const OPT_INS: readonly [string, TraceToolRegistryOptions][] = [
  ['not opted in', {}],
  ['opted in', { recordArguments: true, recordResults: true }],
];

describe.each(OPT_INS)('traceToolRegistry redaction, %s', (_label, options) => {
  const env = useTracedWorkspace(async (workspace) => {
    await writeFile(path.join(workspace.root, 'env.txt'), `AWS_ACCESS_KEY_ID=${AWS_KEY}\n`);
    return openProjectHost(workspace);
  });
  let traced: ToolRegistry;

  beforeEach(() => {
    traced = traceToolRegistry(createRealRegistry(env.handle, [signedEcho]), {
      tracer: env.tracing.provider.getTracer('test'),
      ...options,
    });
  });

  const everything = () => env.tracing.spans().map(spanText).join('\n');

  it('keeps a secret in the arguments out of every attribute and event', async () => {
    await traced.dispatch(
      { id: 'w', name: 'write_file', args: { path: 'out.txt', content: `token=${TOKEN}\n` } },
      grantContext(['write_file'], { approval: { confirm: async () => ({ outcome: 'approve' }) } }),
    );

    expect(everything()).not.toContain(TOKEN);
  });

  it('keeps a secret in the result out of every attribute and event', async () => {
    const outcome = await traced.dispatch(
      { id: 'r', name: 'read_file', args: { path: 'env.txt' } },
      grantContext(['read_file']),
    );

    expect(JSON.stringify(outcome.output)).toContain(AWS_KEY);
    expect(everything()).not.toContain(AWS_KEY);
  });

  it('never shows a config-only value, secret-shaped or not', async () => {
    await traced.dispatch(
      { id: 'e', name: signedEcho.id, args: { text: 'hello' } },
      grantContext([signedEcho.id], { config: { parameters: { signingKey: CONFIG_VALUE } } }),
    );

    expect(everything()).not.toContain(CONFIG_VALUE);
  });

  it('keeps a secret in refused arguments out of the status and attributes', async () => {
    const attempt = traced.dispatch(
      { id: 'x', name: 'read_file', args: { path: TOKEN, [TOKEN]: TOKEN } },
      grantContext(['read_file']),
    );

    await expect(attempt).rejects.toMatchObject({ code: 'tool_args_invalid' });
    expect(everything()).not.toContain(TOKEN);
  });

  it("keeps a rejecting approver's reason and the previewed path out of the span", async () => {
    const attempt = traced.dispatch(
      { id: 'w', name: 'write_file', args: { path: `${TOKEN}.txt`, content: 'x' } },
      grantContext(['write_file'], {
        approval: { confirm: async () => ({ outcome: 'reject', reason: `because ${TOKEN}` }) },
      }),
    );

    await expect(attempt).rejects.toMatchObject({ reason: 'user_rejected' });
    expect(everything()).not.toContain(TOKEN);
  });
});

describe('traceToolRegistry content opt-ins', () => {
  const env = useTracedWorkspace(openProjectHost);
  let registry: ToolRegistry;

  beforeEach(() => {
    registry = createRealRegistry(env.handle, [signedEcho]);
  });

  const echo = (options: TraceToolRegistryOptions) =>
    traceToolRegistry(registry, {
      tracer: env.tracing.provider.getTracer('test'),
      ...options,
    }).dispatch(
      { id: 'e', name: signedEcho.id, args: { text: `hi ${TOKEN}` } },
      grantContext([signedEcho.id], { config: { parameters: { signingKey: CONFIG_VALUE } } }),
    );

  it('records neither arguments nor result unless asked', async () => {
    await echo({});

    const [span] = env.tracing.spans();
    expect(span?.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(span?.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(spanText(span!)).not.toContain('hi ');
  });

  it('records exactly the redacted projections the outcome events carry', async () => {
    const outcome = await echo({ recordArguments: true, recordResults: true });

    const [span] = env.tracing.spans();
    expect(span?.attributes['gen_ai.tool.call.arguments']).toBe(
      JSON.stringify(outcome.events.call.toolInput),
    );
    expect(span?.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"hi [redacted]"}');
    expect(span?.attributes['gen_ai.tool.call.result']).toBe(outcome.events.result.outputSummary);
    expect(span?.attributes['gen_ai.tool.call.result']).toContain('[redacted]');
  });

  it('records each opt-in on its own', async () => {
    await echo({ recordArguments: true });
    await echo({ recordResults: true });

    const [argumentsOnly, resultOnly] = env.tracing.spans();
    expect(Object.keys(argumentsOnly?.attributes ?? {})).toContain('gen_ai.tool.call.arguments');
    expect(Object.keys(argumentsOnly?.attributes ?? {})).not.toContain('gen_ai.tool.call.result');
    expect(Object.keys(resultOnly?.attributes ?? {})).toContain('gen_ai.tool.call.result');
    expect(Object.keys(resultOnly?.attributes ?? {})).not.toContain('gen_ai.tool.call.arguments');
  });

  it('bounds a long projection', async () => {
    const traced = traceToolRegistry(registry, {
      tracer: env.tracing.provider.getTracer('test'),
      recordArguments: true,
    });

    await traced.dispatch(
      { id: 'w', name: 'write_file', args: { path: 'big.txt', content: 'word '.repeat(2000) } },
      grantContext(['write_file']),
    );

    const recorded = env.tracing.spans()[0]?.attributes['gen_ai.tool.call.arguments'];
    expect(typeof recorded === 'string' && recorded.length).toBeLessThanOrEqual(4096);
  });
});
