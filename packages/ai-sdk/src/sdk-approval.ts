import type { AnyToolDef, ToolActionClass, ToolActionPreview, ToolId } from '@toolhost/core';
import type { LoopRegistry, ResolvedAdapterOptions } from '@toolhost/core/loop';
import type { ToolApprovalContext, ToolPreflight } from '@toolhost/core/policy';
import type { ModelMessage, ToolSet } from 'ai';
import { isApprovedResume } from './approved-resume.js';

/** What the human is shown for one `tool-approval-request`: the preview `confirm` would get. */
export interface ToolhostApprovalPreview {
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  /** Scrubbed and secret-free: the path, the command or the host only, never raw arguments. */
  readonly preview: ToolActionPreview;
}

/** The slice of a `tool-approval-request` part (generateText content, a stream part) needed. */
export interface ToolApprovalRequestLike {
  readonly toolCall: {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly input: unknown;
  };
}

type Preflight = NonNullable<LoopRegistry['preflight']>;

// Per tool set built under `approval: 'sdk'`: how to preflight a call of one of its tools.
const preflightOf = new WeakMap<
  object,
  (call: ToolApprovalRequestLike['toolCall']) => ToolPreflight
>();

/**
 * `needsApproval` under `approval: 'sdk'`: runs the engine's checks before consent first, so a
 * refused call is never put to a human (the SDK then runs it, and the pipeline refuses it inside
 * the step, where the ladder ends the turn or feeds it back). Only a governed call asks.
 */
export function sdkNeedsApproval(
  registry: LoopRegistry,
  resolved: ResolvedAdapterOptions,
  def: AnyToolDef,
): (input: unknown, options: { readonly toolCallId: string }) => boolean {
  const preflight = requirePreflight(registry);
  return (input, { toolCallId }) => {
    try {
      const { action } = preflight(
        { id: toolCallId, name: def.id, args: input },
        resolved.contextFor(def.id),
      );
      return action !== undefined;
    } catch {
      return false;
    }
  };
}

/** Lets `toolhostApprovalPreview` find the registry behind each tool of an `'sdk'` tool set. */
export function registerApprovalPreviews(
  tools: ToolSet,
  registry: LoopRegistry,
  resolved: ResolvedAdapterOptions,
): void {
  const preflight = requirePreflight(registry);
  for (const [id, sdkTool] of Object.entries(tools)) {
    preflightOf.set(sdkTool, ({ toolCallId, input }) =>
      preflight({ id: toolCallId, name: id, args: input }, resolved.contextFor(id)),
    );
  }
}

/**
 * The secret-free preview to show the human for a `tool-approval-request` of a toolhost tool, in
 * place of its raw `input` (which can hold a token): the same scrubbed preview toolhost's
 * `confirm` hook receives. Throws the typed refusal for a call the policy refuses, and a
 * `TypeError` for a call that is not a governed toolhost call under `approval: 'sdk'`.
 */
export function toolhostApprovalPreview(
  tools: ToolSet,
  request: ToolApprovalRequestLike,
): ToolhostApprovalPreview {
  const { toolName } = request.toolCall;
  const sdkTool = Object.hasOwn(tools, toolName) ? tools[toolName] : undefined;
  const preflight = sdkTool === undefined ? undefined : preflightOf.get(sdkTool);
  if (preflight === undefined) {
    throw new TypeError(`toolhost: ${toolName} is not a toolhost tool under approval: 'sdk'`);
  }
  const { action, preview } = preflight(request.toolCall);
  if (action === undefined || preview === undefined) {
    throw new TypeError(`toolhost: ${toolName} call is not governed: no approval to preview`);
  }
  return Object.freeze({ toolId: toolName, action, preview });
}

/**
 * The pipeline's gate under `approval: 'sdk'`: the SDK asked the human before calling `execute`,
 * so it approves exactly a call the conversation holds an approval for and refuses anything else.
 */
export function sdkApprovedGate(
  messages: readonly ModelMessage[],
  toolCallId: string,
): ToolApprovalContext {
  const approved = isApprovedResume(messages, toolCallId);
  return {
    confirm: async () =>
      approved
        ? { outcome: 'approve' }
        : { outcome: 'reject', reason: 'not presented for approval' },
  };
}

// A refused call must never reach a human, and only the registry's preflight knows which are.
function requirePreflight(registry: LoopRegistry): Preflight {
  const preflight = registry.preflight;
  if (preflight === undefined) {
    throw new TypeError(
      "toolhost: approval: 'sdk' needs a registry with preflight (createToolRegistry)",
    );
  }
  return preflight.bind(registry);
}
