// `@toolhost/core/loop`: the reference loop's parts and what the adapter packages share — the
// failure ladder, the budgets' defaults, reported-media fencing, the loop's message shapes and
// the adapter options' resolution.
export { applyFailureLadder, feedbackText } from './loop/apply-failure-ladder.js';
export type { FailureLadderOptions, FailureLadderStep } from './loop/apply-failure-ladder.js';
export { DEFAULT_MAX_CORRECTIONS } from './loop/correction-budget.js';
export { createTurnLimit, DEFAULT_MAX_TOOL_TURNS } from './loop/turn-limit.js';
export type { TurnLimit } from './loop/turn-limit.js';
export { defaultRandomNonce } from './loop/random-nonce.js';
export type { RandomNonce } from './loop/random-nonce.js';
export {
  fenceReportedMedia,
  reportedContentClosing,
  reportedContentOpening,
} from './loop/fence-reported-media.js';
export type { CallMediaAttachments } from './loop/fence-reported-media.js';
export { approvalActionClass } from './loop/approval-action-class.js';
export { resolveAdapterOptions } from './loop/resolve-adapter-options.js';
export type { ResolvedAdapterOptions } from './loop/resolve-adapter-options.js';
export type { LoopDispatchOutcome, LoopRegistry, LoopToolCall } from './loop/loop-registry.js';
export type {
  AssistantMessage,
  InstructionMessage,
  LoopMessage,
  ReportedMediaPart,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './loop/loop-messages.js';
