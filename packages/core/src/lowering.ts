// `@toolhost/core/lowering`: what `toProviderTools` is built from — each provider's tool shape,
// the strict-schema and Gemini schema conversions and their way back, and the provider list.
export type {
  AiSdkToolSpec,
  AnthropicTool,
  GeminiFunctionDeclaration,
  GeminiTool,
  LowerableTool,
  OpenAiChatTool,
  OpenAiResponsesTool,
} from './lowering/to-provider-tools.js';
export { toOpenAiStrictSchema } from './lowering/to-openai-strict-schema.js';
export { toGeminiSchema } from './lowering/to-gemini-schema.js';
export { fromOpenAiStrictArgs } from './lowering/from-openai-strict-args.js';
export { TOOL_PROVIDERS } from './lowering/tool-providers.js';
export type { SchemaNode } from './lowering/schema-node.js';
export type { JsonSchema } from './tool-def.js';
