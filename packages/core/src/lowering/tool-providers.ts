/** The wire formats `toProviderTools` lowers to. */
export const TOOL_PROVIDERS = [
  'openai-chat',
  'openai-responses',
  'anthropic',
  'gemini',
  'ai-sdk',
] as const;

/** One of `TOOL_PROVIDERS`. */
export type ToolProvider = (typeof TOOL_PROVIDERS)[number];
