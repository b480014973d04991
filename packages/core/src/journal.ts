// `@toolhost/core/journal`: the effect journal's contract (what a durable journal implements),
// the in-memory journal, the operator-resolved record, an effect's identity and the dispatch
// record's limit.
export type {
  EffectJournal,
  EffectKey,
  JournalState,
  JsonValue,
  SettledEffect,
} from './journal/effect-journal.js';
export {
  isOperatorResolvedRecord,
  OPERATOR_RESOLVED_RESULT,
  operatorResolvedRecord,
} from './journal/operator-resolved-record.js';
export { createMemoryEffectJournal } from './journal/memory-effect-journal.js';
export { effectIdempotencyKey } from './journal/effect-identity.js';
export { isJournaledTool } from './journal/is-journaled-tool.js';
export { DEFAULT_MAX_RECORD_BYTES } from './journal/dispatch-record.js';
export type { ToolJournalContext } from './dispatch-context.js';
export type { ToolJournalOutcome } from './dispatch/tool-call.js';
