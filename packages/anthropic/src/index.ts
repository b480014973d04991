export { createAnthropicToolhost } from './create-anthropic-toolhost.js';
export type {
  AnthropicToolhost,
  AnthropicToolTurn,
  AnthropicTurnOptions,
} from './create-anthropic-toolhost.js';
export type { AnthropicRunnerTurn, AnthropicRunnerTurnOptions } from './start-runner-turn.js';
export { endedTurnText, NOT_RUN_TEXT } from './close-tool-uses.js';
export { toAnthropicMessage, toolResultBlock } from './to-anthropic-message.js';
export type { ToolResultContentBlock } from './to-anthropic-message.js';
