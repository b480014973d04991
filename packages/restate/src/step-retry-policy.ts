import type { RunOptions } from '@restatedev/restate-sdk';
import type { AnyToolDef } from '@toolhost/core';
import { isJournaledTool } from '@toolhost/core/journal';

/** How often a durable step may be attempted, and how far apart. */
export interface StepRetryPolicy {
  readonly maxRetryAttempts: number;
  readonly initialRetryIntervalMs?: number;
  readonly maxRetryIntervalMs?: number;
}

/** Idempotent reads: a transient host failure is worth three tries. */
export const DEFAULT_READ_RETRY: StepRetryPolicy = {
  maxRetryAttempts: 3,
  initialRetryIntervalMs: 100,
  maxRetryIntervalMs: 2_000,
};

/** Side effects: one attempt. A step Restate re-runs after a crash finds its claim prepared. */
const SIDE_EFFECT_RETRY: StepRetryPolicy = { maxRetryAttempts: 1 };

/** Whether a tool's step may be re-attempted on a raw host failure: only what the bracket skips. */
export function mayRetry(def: AnyToolDef): boolean {
  return !isJournaledTool(def);
}

/** The step options for one dispatch of `def`: reads per `reads`, every side effect once. */
export function stepRetryOptions<T>(
  def: AnyToolDef,
  reads: StepRetryPolicy = DEFAULT_READ_RETRY,
): RunOptions<T> {
  return toRunOptions(mayRetry(def) ? reads : SIDE_EFFECT_RETRY);
}

/** A policy as the SDK's options, refusing a count that would retry forever or never run. */
export function toRunOptions<T>(policy: StepRetryPolicy): RunOptions<T> {
  const { maxRetryAttempts, initialRetryIntervalMs, maxRetryIntervalMs } = policy;
  if (!Number.isSafeInteger(maxRetryAttempts) || maxRetryAttempts < 1) {
    throw new TypeError('toolhost: maxRetryAttempts must be a positive integer');
  }
  return {
    maxRetryAttempts,
    ...(initialRetryIntervalMs === undefined
      ? {}
      : { initialRetryInterval: initialRetryIntervalMs }),
    ...(maxRetryIntervalMs === undefined ? {} : { maxRetryInterval: maxRetryIntervalMs }),
  };
}
