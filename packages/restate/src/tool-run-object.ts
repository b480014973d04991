import * as restate from '@restatedev/restate-sdk';
import {
  createCorrectionBudget,
  runToolCalls,
  ToolDispatchError,
  type CorrectionBudget,
  type ToolCallRound,
  type ToolDispatchContext,
} from '@toolhost/core';
import type { EffectJournal } from '@toolhost/core/journal';
import {
  createTurnLimit,
  DEFAULT_MAX_TOOL_TURNS,
  type LoopMessage,
  type LoopToolCall,
} from '@toolhost/core/loop';

import type { ToolRunApprovals } from './approval-notice.js';
import { encodeDispatchError, statusOf } from './dispatch-error-codec.js';
import { durableToolRegistry, type DurableSourceRegistry } from './durable-tool-registry.js';
import {
  assistantMessage,
  checkModelTurn,
  type ToolRunModel,
  type ToolRunModelRequest,
  type ToolRunModelTurn,
} from './model-turn.js';
import { runRecord, type RecordedRound } from './run-record.js';
import { toRunOptions, type StepRetryPolicy } from './step-retry-policy.js';

/** What a run is started with. */
export interface ToolRunInput {
  readonly prompt: string;
  readonly system?: string;
}

/** How a run ended: the model's last text, and how much it took. */
export interface ToolRunOutput {
  readonly text: string;
  readonly turns: number;
  readonly toolCalls: number;
}

/** A worker's wiring for one virtual object of agent runs. */
export interface ToolRunObjectOptions {
  /** The virtual object's name; default `toolhost-run`. */
  readonly name?: string;
  /** The registry the run dispatches through (`createToolRegistry(...)` over a Node host). */
  readonly registry: DurableSourceRegistry;
  /** The run's dispatch context (grant, policy, scope, governor); its journal and signal are set here. */
  readonly context: (runId: string) => ToolDispatchContext;
  /** The effect journal shared by every worker that may run this object (see `durableToolRegistry`). */
  readonly journal: EffectJournal;
  readonly model: ToolRunModel;
  /** Present ⇒ governed calls wait for a person, as awakeables. */
  readonly approvals?: ToolRunApprovals;
  /** Model turns per run; default 16. */
  readonly maxTurns?: number;
  /** Feed recoverable failures back to the model (default true: an agent run is a chat). */
  readonly recoverToolFailures?: boolean;
  /** Retries of a failing model call (default 5) and of idempotent reads (default 3). */
  readonly retry?: { readonly model?: StepRetryPolicy; readonly reads?: StepRetryPolicy };
  readonly maxStepResultBytes?: number;
}

const DEFAULT_MODEL_RETRY: StepRetryPolicy = {
  maxRetryAttempts: 5,
  initialRetryIntervalMs: 200,
  maxRetryIntervalMs: 10_000,
};

/**
 * A Restate virtual object per agent run, keyed by run id: `run` drives the tool-call loop with
 * every model turn and every dispatch a named durable step, so a worker that dies mid-run is
 * replaced by any other behind the same endpoint and the run goes on from its journal.
 * Exclusive per key: one run's turns never interleave.
 */
export function createToolRunObject(options: ToolRunObjectOptions) {
  const modelRetry = toRunOptions(options.retry?.model ?? DEFAULT_MODEL_RETRY);
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TOOL_TURNS;
  createTurnLimit(maxTurns); // refuses a bad limit when the worker starts, not mid-run
  return restate.object({
    name: options.name ?? 'toolhost-run',
    handlers: {
      async run(ctx: restate.ObjectContext, input: ToolRunInput): Promise<ToolRunOutput> {
        try {
          return await driveRun(ctx, checkInput(input), options, modelRetry, maxTurns);
        } catch (error) {
          throw asTerminal(error);
        }
      },
    },
  });
}

async function driveRun(
  ctx: restate.ObjectContext,
  input: ToolRunInput,
  options: ToolRunObjectOptions,
  modelRetry: restate.RunOptions<unknown>,
  maxTurns: number,
): Promise<ToolRunOutput> {
  const runId = ctx.key;
  const dispatchCtx = options.context(runId);
  const tools = [...dispatchCtx.grantedToolIds].filter(
    (id) => options.registry.get(id) !== undefined,
  );
  const messages: LoopMessage[] = [
    ...(input.system === undefined ? [] : [{ role: 'system' as const, content: input.system }]),
    { role: 'user', content: [{ type: 'text', text: input.prompt }] },
  ];
  const budget = createCorrectionBudget();
  const turns = createTurnLimit(maxTurns);
  const record = runRecord(ctx);
  await record.claimInput(input);
  let toolCalls = 0;
  for (let turn = 0; turns.take(); turn += 1) {
    let answer = await record.turn(turn);
    if (answer === undefined) {
      answer = await askModel(ctx, options, modelRetry, {
        runId,
        turn,
        messages: [...messages],
        tools,
      });
      record.recordTurn(turn, answer);
    }
    messages.push(assistantMessage(answer));
    const calls = answer.toolCalls ?? [];
    if (calls.length === 0) return { text: answer.text ?? '', turns: turn + 1, toolCalls };
    toolCalls += calls.length;
    let round: RecordedRound | undefined = await record.round(turn);
    if (round === undefined) {
      const ran = await runRound(ctx, options, runId, turn, calls, { dispatchCtx, budget });
      record.recordRound(turn, ran);
      round = ran;
    }
    messages.push(round.toolMessage);
    if (round.attachments !== undefined) messages.push(round.attachments);
  }
  throw new restate.TerminalError(`toolhost: the run used all ${maxTurns} model turns`, {
    errorCode: 429,
    metadata: { reason: 'turn_limit' },
  });
}

// One model turn as a durable step: a replay of this invocation reads the answer back.
async function askModel(
  ctx: restate.ObjectContext,
  options: ToolRunObjectOptions,
  modelRetry: restate.RunOptions<unknown>,
  request: Omit<ToolRunModelRequest, 'signal'>,
): Promise<ToolRunModelTurn> {
  const reply = await ctx.run(
    `model turn ${request.turn}`,
    async () =>
      checkModelTurn(
        await options.model({ ...request, signal: ctx.request().attemptCompletedSignal }),
      ),
    modelRetry,
  );
  return checkModelTurn(reply);
}

// One round of tool calls, each a durable step. The journal keys are the run's own (`turn.call`),
// not the invocation's: a rerun of the run finds the effects of this round settled and replays
// them, and an operator's resolution of an unresolved one is what the rerun answers with.
function runRound(
  ctx: restate.ObjectContext,
  options: ToolRunObjectOptions,
  runId: string,
  turn: number,
  calls: readonly LoopToolCall[],
  state: { readonly dispatchCtx: ToolDispatchContext; readonly budget: CorrectionBudget },
): Promise<ToolCallRound> {
  const registry = durableToolRegistry(ctx, {
    registry: options.registry,
    journal: { store: options.journal, runId },
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
    ...(options.retry?.reads === undefined ? {} : { readRetry: options.retry.reads }),
    ...(options.maxStepResultBytes === undefined
      ? {}
      : { maxStepResultBytes: options.maxStepResultBytes }),
    callKeyPrefix: `${turn}.`,
  });
  return runToolCalls(calls, {
    registry,
    ctx: state.dispatchCtx,
    budget: state.budget,
    recoverToolFailures: options.recoverToolFailures ?? true,
  });
}

function checkInput(input: unknown): ToolRunInput {
  const { prompt, system } = (input ?? {}) as Record<string, unknown>;
  if (typeof prompt !== 'string' || prompt === '') {
    throw new restate.TerminalError('toolhost: a run needs a non-empty prompt', { errorCode: 400 });
  }
  if (system !== undefined && typeof system !== 'string') {
    throw new restate.TerminalError('toolhost: system must be a string', { errorCode: 400 });
  }
  return system === undefined ? { prompt } : { prompt, system };
}

// A typed refusal that ended the run is terminal (Restate must not retry the invocation);
// Restate's own errors and signals (suspension, cancellation) pass through as they are.
function asTerminal(error: unknown): unknown {
  if (!(error instanceof ToolDispatchError)) return error;
  return new restate.TerminalError(error.message, {
    errorCode: statusOf(error),
    metadata: { ...encodeDispatchError(error) },
  });
}
