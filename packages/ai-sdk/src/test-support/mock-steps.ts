// Model responses for the SDK's own mock model, in the shapes both `ai` majors accept.
import { simulateReadableStream, type ModelMessage } from 'ai';
import type { MockLanguageModelV3 } from 'ai/test';

export type GenerateResult = Awaited<ReturnType<NonNullable<MockLanguageModelV3['doGenerate']>>>;
export type StreamResult = Awaited<ReturnType<NonNullable<MockLanguageModelV3['doStream']>>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
export type Prompt = MockLanguageModelV3['doGenerateCalls'][number]['prompt'];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A response that calls one tool. */
export function callsTool(toolName: string, input: unknown, toolCallId = `call-${toolName}`) {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    warnings: [],
  } satisfies GenerateResult;
}

/** A response that only says `text`. */
export function says(text: string) {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  } satisfies GenerateResult;
}

/** The streamed form of a `callsTool` / `says` response. */
export function streamed(result: GenerateResult): StreamResult {
  const parts: StreamPart[] = result.content.flatMap((part): StreamPart[] => {
    if (part.type === 'text') {
      return [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: part.text },
        { type: 'text-end', id: 't' },
      ];
    }
    return part.type === 'tool-call' ? [part] : [];
  });
  const finish: StreamPart = { type: 'finish', finishReason: result.finishReason, usage };
  return { stream: simulateReadableStream({ chunks: [...parts, finish] }) };
}

/** The tool-result outputs the model was shown in a prompt. */
export function toolOutputs(prompt: Prompt | undefined): unknown[] {
  return (prompt ?? []).flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []))
      : [],
  );
}

/** The conversation that resumes a turn with every approval request of `first` answered. */
export function answered(
  first: { readonly content: readonly { type: string; approvalId?: string }[] },
  responseMessages: readonly ModelMessage[],
  approved: boolean,
): ModelMessage[] {
  const approvalIds = first.content.flatMap((part) =>
    part.type === 'tool-approval-request' && part.approvalId !== undefined ? [part.approvalId] : [],
  );
  return [
    { role: 'user', content: 'go' },
    ...responseMessages,
    {
      role: 'tool',
      content: approvalIds.map((approvalId) => ({
        type: 'tool-approval-response' as const,
        approvalId,
        approved,
      })),
    },
  ];
}
