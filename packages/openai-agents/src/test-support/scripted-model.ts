import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

/** One scripted model turn: function calls (`[name, arguments]`) or a final text. */
export type ScriptedTurn = readonly (readonly [name: string, args: string])[] | string;

/**
 * A fake `Model` (the SDK's own interface) that answers from a script and reports no usage, as
 * many providers and proxies do: `usage.requests` stays 0 for the whole run. The last turn
 * repeats once the script runs out.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];

  constructor(private readonly script: readonly ScriptedTurn[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const index = this.requests.push(request) - 1;
    const turn = this.script[Math.min(index, this.script.length - 1)] ?? 'Done.';
    return { usage: new Usage(), output: outputOf(turn, index), responseId: `resp_${index}` };
  }

  // eslint-disable-next-line require-yield -- the runs under test never stream.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel does not stream');
  }
}

function outputOf(turn: ScriptedTurn, index: number): ModelResponse['output'] {
  if (typeof turn === 'string') {
    return [
      {
        type: 'message',
        id: `msg_${index}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn }],
      },
    ];
  }
  return turn.map(([name, args], call) => ({
    type: 'function_call',
    id: `fc_${index}_${call}`,
    callId: `call_${index}_${call}`,
    name,
    arguments: args,
    status: 'completed',
  }));
}

/** The `function_call_result` items the SDK put in request `index`'s input. */
export function resultsIn(
  model: ScriptedModel,
  index: number,
): { callId: string; output: unknown }[] {
  const input = model.requests[index]?.input;
  if (!Array.isArray(input)) return [];
  return input.filter(
    (item): item is typeof item & { callId: string; output: unknown } =>
      (item as { type?: string }).type === 'function_call_result',
  );
}
