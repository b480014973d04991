import {
  approvalActionClass,
  classifyToolError,
  feedbackText,
  resolveAdapterOptions,
  toModelText,
  toProviderTools,
  unwrapUntrusted,
  type AnyToolDef,
  type DurableMediaPart,
  type LoopRegistry,
  type ResolvedAdapterOptions,
  type ToolApprovalContext,
  type ToolhostAdapterOptions,
} from '@toolhost/core';
import { jsonSchema, tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import { mediaModelOutput } from './to-model-output.js';
import { markTurnEnding, ToolCallFeedbackError } from './turn-marks.js';

/** toolhost's adapter options, plus `approval: 'sdk'` for the AI SDK's own approval flow. */
export interface AiSdkToolhostOptions extends Omit<ToolhostAdapterOptions, 'approval'> {
  /**
   * `'sdk'`: governed calls get `needsApproval`, so `generateText` stops with a
   * `tool-approval-request` and runs the call only after an approved `tool-approval-response`.
   * A `ToolApprovalContext`: toolhost's own `confirm` hook decides inside the pipeline.
   * Absent: no interactive approval (the policy floors still apply).
   */
  readonly approval?: ToolApprovalContext | 'sdk';
}

// Settings `toolhostStopWhen` reads back from a tool set, so the grant and the budget stay in
// the one options object.
const settingsOf = new WeakMap<ToolSet, ResolvedAdapterOptions>();

/**
 * The granted tools as an AI SDK `ToolSet`: each `execute` runs the whole toolhost pipeline with
 * the SDK's abort signal and returns the bounded result. Pair it with `toolhostStopWhen(tools)`
 * so a fatal failure, a cancellation or a spent correction budget ends the turn.
 */
export function toolhostTools(registry: LoopRegistry, options: AiSdkToolhostOptions): ToolSet {
  const { approval, ...rest } = options;
  const resolved = resolveAdapterOptions(registry, {
    ...rest,
    ...(approval === undefined || approval === 'sdk' ? {} : { approval }),
  });
  // Only the model-visible projection crosses: config-only keys are not in it.
  const specs = toProviderTools(resolved.tools, 'ai-sdk');
  const tools: ToolSet = {};
  for (const def of resolved.tools) {
    const inputSchema = specs[def.id]?.inputSchema ?? def.llmVisibleParams;
    tools[def.id] = toolFor(def, inputSchema, {
      registry,
      resolved,
      sdkApproval: approval === 'sdk',
    });
  }
  settingsOf.set(tools, resolved);
  return tools;
}

/** The resolved settings of a tool set `toolhostTools` built, or `undefined`. */
export function toolhostSettings(tools: ToolSet): ResolvedAdapterOptions | undefined {
  return settingsOf.get(tools);
}

interface ToolForDeps {
  readonly registry: LoopRegistry;
  readonly resolved: ResolvedAdapterOptions;
  readonly sdkApproval: boolean;
}

function toolFor(def: AnyToolDef, inputSchema: object, deps: ToolForDeps): ToolSet[string] {
  const { registry, resolved, sdkApproval } = deps;
  const governed = approvalActionClass(def) !== undefined;
  // Media rides from `execute` to `toModelOutput`, which the SDK calls right after it.
  const mediaByCall = new Map<string, readonly DurableMediaPart[]>();
  return tool({
    description: def.description,
    inputSchema: jsonSchema(inputSchema as Parameters<typeof jsonSchema>[0]),
    ...(sdkApproval && governed ? { needsApproval: true } : {}),
    execute: async (input: unknown, { toolCallId, abortSignal }: ToolExecutionOptions) => {
      const ctx = resolved.contextFor(def.id, {
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        ...(sdkApproval ? { approval: sdkApprovedGate(governed) } : {}),
      });
      try {
        const outcome = await registry.dispatch({ id: toolCallId, name: def.id, args: input }, ctx);
        if (outcome.mediaAttachments !== undefined) {
          mediaByCall.set(toolCallId, unwrapUntrusted(outcome.mediaAttachments));
        }
        // The placement site: the SDK puts this in the tool-result position.
        return unwrapUntrusted(outcome.toolResult).result;
      } catch (error) {
        throw ladderError(error, resolved);
      }
    },
    toModelOutput: ({ toolCallId, output }) => {
      const media = mediaByCall.get(toolCallId);
      mediaByCall.delete(toolCallId);
      if (media !== undefined) return mediaModelOutput(output, media, resolved.randomNonce);
      // The text bounding measured, not the SDK's JSON of it: a file's lines stay lines.
      return { type: 'text', value: toModelText(output) };
    },
  });
}

// Under `approval: 'sdk'` the SDK already asked the human before calling `execute`, so the
// pipeline's gate approves exactly the calls that were presented and refuses anything else.
function sdkApprovedGate(governed: boolean): ToolApprovalContext {
  return {
    confirm: async () =>
      governed
        ? { outcome: 'approve' }
        : { outcome: 'reject', reason: 'not presented for approval' },
  };
}

// The budget is applied per turn by `toolhostStopWhen`, which sees every step; here each failure
// is only sorted into "feed back" (a correction) or "end the turn".
function ladderError(error: unknown, resolved: ResolvedAdapterOptions): unknown {
  const errorClass = classifyToolError(error);
  const feedable =
    errorClass === 'correctable' || (errorClass === 'recoverable' && resolved.recoverToolFailures);
  if (!feedable) return markTurnEnding(error);
  return new ToolCallFeedbackError(feedbackText(error as Error), error as Error);
}
