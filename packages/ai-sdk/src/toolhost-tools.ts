import {
  classifyToolError,
  toProviderTools,
  unwrapUntrusted,
  type AnyToolDef,
  type ToolhostAdapterOptions,
} from '@toolhost/core';
import { toModelText } from '@toolhost/core/bound';
import type { DurableMediaPart } from '@toolhost/core/host';
import {
  approvalActionClass,
  feedbackText,
  resolveAdapterOptions,
  type LoopRegistry,
  type ResolvedAdapterOptions,
} from '@toolhost/core/loop';
import type { ToolApprovalContext } from '@toolhost/core/policy';
import { jsonSchema, tool, type ToolSet } from 'ai';
import { isApprovedResume } from './approved-resume.js';
import { registerApprovalPreviews, sdkApprovedGate, sdkNeedsApproval } from './sdk-approval.js';
import { mediaModelOutput } from './to-model-output.js';
import { isTurnEnding, markTurnEnding, ToolCallFeedbackError } from './turn-marks.js';

/** toolhost's adapter options, plus `approval: 'sdk'` for the AI SDK's own approval flow. */
export interface AiSdkToolhostOptions extends Omit<ToolhostAdapterOptions, 'approval'> {
  /**
   * `'sdk'`: a governed call the engine's preflight lets through gets `needsApproval`, so
   * `generateText` stops with a `tool-approval-request` (show `toolhostApprovalPreview`, not the
   * raw input) and runs the call only after an approved `tool-approval-response`.
   * A `ToolApprovalContext`: toolhost's own `confirm` hook decides inside the pipeline.
   * Absent: no interactive approval (the policy floors still apply).
   */
  readonly approval?: ToolApprovalContext | 'sdk';
}

// Settings `toolhostStopWhen` reads back, so the grant and the budget stay in the one options
// object. Keyed by each tool, not the set: `{ ...tools, mine }` is a new object holding them.
const settingsOf = new WeakMap<object, ResolvedAdapterOptions>();

// What an approved call that failed fatally returns, for `toModelOutput` to end the turn on.
const TURN_ENDED = 'toolhost: this approved call failed and ended the turn';

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
  for (const sdkTool of Object.values(tools)) settingsOf.set(sdkTool, resolved);
  if (approval === 'sdk') registerApprovalPreviews(tools, registry, resolved);
  return tools;
}

/**
 * The resolved settings of the toolhost tools in `tools` (a set `toolhostTools` built, or one
 * merged from it), or `undefined` when none is a toolhost tool. A set merged from several
 * `toolhostTools` calls yields each call's settings once.
 */
export function toolhostSettings(tools: ToolSet): ResolvedAdapterOptions | undefined {
  return toolhostSettingsList(tools)[0];
}

/** Every distinct settings object behind the toolhost tools of `tools`. */
export function toolhostSettingsList(tools: ToolSet): readonly ResolvedAdapterOptions[] {
  const found = new Set<ResolvedAdapterOptions>();
  for (const sdkTool of Object.values(tools)) {
    const settings = settingsOf.get(sdkTool);
    if (settings !== undefined) found.add(settings);
  }
  return [...found];
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
  const endedByCall = new Map<string, unknown>();
  return tool({
    description: def.description,
    inputSchema: jsonSchema(inputSchema as Parameters<typeof jsonSchema>[0]),
    ...(sdkApproval && governed
      ? { needsApproval: sdkNeedsApproval(registry, resolved, def) }
      : {}),
    execute: async (input: unknown, options) => {
      const { toolCallId, abortSignal, messages } = options;
      const ctx = resolved.contextFor(def.id, {
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        ...(sdkApproval ? { approval: sdkApprovedGate(messages, toolCallId) } : {}),
      });
      try {
        const outcome = await registry.dispatch({ id: toolCallId, name: def.id, args: input }, ctx);
        if (outcome.mediaAttachments !== undefined) {
          mediaByCall.set(toolCallId, unwrapUntrusted(outcome.mediaAttachments));
        }
        // The placement site: the SDK puts this in the tool-result position.
        return unwrapUntrusted(outcome.toolResult).result;
      } catch (error) {
        const laddered = ladderError(error, resolved);
        // The SDK runs approved calls when the turn resumes, before its first step: no stop
        // condition sees a tool-error there and the model would be called. `toModelOutput`, which
        // the SDK calls next, throws it instead, so the resumed call rejects with no model call.
        if (!isTurnEnding(laddered) || !isApprovedResume(messages, toolCallId)) throw laddered;
        endedByCall.set(toolCallId, laddered);
        return TURN_ENDED;
      }
    },
    toModelOutput: ({ toolCallId, output }) => {
      if (endedByCall.has(toolCallId)) {
        const ended = endedByCall.get(toolCallId);
        endedByCall.delete(toolCallId);
        throw ended;
      }
      const media = mediaByCall.get(toolCallId);
      mediaByCall.delete(toolCallId);
      if (media !== undefined) return mediaModelOutput(output, media, resolved.randomNonce);
      // The text bounding measured, not the SDK's JSON of it: a file's lines stay lines.
      return { type: 'text', value: toModelText(output) };
    },
  });
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
