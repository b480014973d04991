export { createAnthropicToolhost } from './create-anthropic-toolhost.js';
export type {
  AnthropicToolhost,
  AnthropicToolTurn,
  AnthropicTurnOptions,
} from './create-anthropic-toolhost.js';
export { toAnthropicMessage } from './to-anthropic-message.js';
