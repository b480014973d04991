import * as restate from '@restatedev/restate-sdk';
import type { ToolCallRound } from '@toolhost/core';

import { checkModelTurn, type ToolRunModelTurn } from './model-turn.js';
import { decodeRound, encodeRound, type RecordedRound, type StoredRound } from './round-codec.js';

export type { RecordedRound } from './round-codec.js';

/**
 * A run's record in its virtual object's state, kept per run id across invocations: the input it
 * was started with, each finished model turn and each finished tool round. Restate replays one
 * invocation from its own journal; this is what a *rerun* — the same run id sent again after the
 * run failed (an operator resolved its unresolved claim) — replays from, so it asks the model only
 * for turns that never finished and dispatches only rounds that never finished. Restate keeps an
 * object's state until it is cleared, whatever became of the invocation that wrote it.
 */
export interface RunRecord {
  /** Refuses a rerun whose input differs: its recorded turns answered another prompt. */
  claimInput(input: RunInput): Promise<void>;
  turn(index: number): Promise<ToolRunModelTurn | undefined>;
  recordTurn(index: number, turn: ToolRunModelTurn): void;
  round(index: number): Promise<RecordedRound | undefined>;
  recordRound(index: number, round: ToolCallRound): void;
}

/** The input a run is keyed to. */
export interface RunInput {
  readonly prompt: string;
  readonly system?: string;
}

const INPUT = 'toolhost:input';
const turnKey = (index: number) => `toolhost:turn:${index}`;
const roundKey = (index: number) => `toolhost:round:${index}`;

/** The record of the run `ctx` is keyed by. */
export function runRecord(ctx: restate.ObjectContext): RunRecord {
  return {
    async claimInput(input) {
      const recorded = await ctx.get<RunInput>(INPUT);
      if (recorded === null) {
        ctx.set(INPUT, input);
        return;
      }
      if (recorded.prompt !== input.prompt || recorded.system !== input.system) {
        throw new restate.TerminalError(
          'toolhost: this run id was started with another input; a rerun must send the same prompt, or use a new run id',
          { errorCode: 409, metadata: { reason: 'run_input_mismatch' } },
        );
      }
    },
    async turn(index) {
      const recorded = await ctx.get<unknown>(turnKey(index));
      // Checked again: state can be edited from outside (the admin API, the UI).
      return recorded === null ? undefined : checkModelTurn(recorded);
    },
    recordTurn(index, turn) {
      ctx.set(turnKey(index), turn);
    },
    async round(index) {
      const recorded = await ctx.get<StoredRound>(roundKey(index));
      return recorded === null ? undefined : decodeRound(recorded);
    },
    recordRound(index, round) {
      const stored = encodeRound(round);
      // A round too large for one state value is not kept: a rerun dispatches it again, and
      // its journaled effects replay from the effect journal instead of running twice.
      if (stored !== undefined) ctx.set(roundKey(index), stored);
    },
  };
}
