import type { JsonSchema, ToolDef } from '../tool-def.js';
import { cloneJson, isSchemaNode, withoutNoise, type SchemaNode } from './schema-node.js';
import { toGeminiSchema } from './to-gemini-schema.js';
import { toOpenAiStrictSchema } from './to-openai-strict-schema.js';
import type { ToolProvider } from './tool-providers.js';
import { UnknownProviderError } from './unknown-provider-error.js';

export { TOOL_PROVIDERS, type ToolProvider } from './tool-providers.js';

/** What lowering reads from a tool: never `configOnlyParams`, never `dispatch`. */
export type LowerableTool = Pick<ToolDef, 'id' | 'description' | 'llmVisibleParams'>;

/** An OpenAI Chat Completions function tool. */
export interface OpenAiChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: SchemaNode; strict: boolean };
}

/** An OpenAI Responses API function tool. */
export interface OpenAiResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: SchemaNode;
  strict: boolean;
}

/** An Anthropic Messages API custom tool. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: SchemaNode & { type: 'object' };
}

/** One Gemini function declaration; `parameters` is unset for a tool without arguments. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: SchemaNode;
}

/** A Gemini `Tool` holding every function declaration. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A Vercel AI SDK tool set entry; wrap `inputSchema` with `jsonSchema()` from `ai`. */
export interface AiSdkToolSpec {
  description: string;
  inputSchema: SchemaNode;
}

/** The lowered shape per provider. */
export interface ProviderTools {
  'openai-chat': OpenAiChatTool[];
  'openai-responses': OpenAiResponsesTool[];
  anthropic: AnthropicTool[];
  gemini: GeminiTool;
  'ai-sdk': Record<string, AiSdkToolSpec>;
}

/**
 * Lowers tools to a provider's wire shape: `id → name`, `llmVisibleParams → parameters`.
 * Only the model-visible schema crosses; every result is a fresh mutable copy. OpenAI tools are
 * `strict: true` whenever the root is a closed object, as every `defineTool` tool's is (see
 * `toOpenAiStrictSchema`); map the model's arguments back with `fromOpenAiStrictArgs` before
 * `parseArgs`. Any other provider name throws `UnknownProviderError`.
 */
export function toProviderTools<P extends ToolProvider>(
  tools: readonly LowerableTool[],
  provider: P,
): ProviderTools[P];
export function toProviderTools(
  tools: readonly LowerableTool[],
  provider: ToolProvider,
): ProviderTools[ToolProvider] {
  switch (provider) {
    case 'openai-chat':
      return tools.map((tool) => {
        const { parameters, strict } = openAiParameters(tool.llmVisibleParams);
        return {
          type: 'function',
          function: { name: tool.id, description: tool.description, parameters, strict },
        };
      });
    case 'openai-responses':
      return tools.map((tool) => ({
        type: 'function',
        name: tool.id,
        description: tool.description,
        ...openAiParameters(tool.llmVisibleParams),
      }));
    case 'anthropic':
      return tools.map((tool) => ({
        name: tool.id,
        description: tool.description,
        input_schema: { ...plainSchema(tool.llmVisibleParams), type: 'object' as const },
      }));
    case 'gemini':
      return {
        functionDeclarations: tools.map((tool) => {
          const parameters = toGeminiSchema(tool.llmVisibleParams);
          return parameters === undefined
            ? { name: tool.id, description: tool.description }
            : { name: tool.id, description: tool.description, parameters };
        }),
      };
    case 'ai-sdk':
      return Object.fromEntries(
        tools.map((tool) => [
          tool.id,
          { description: tool.description, inputSchema: plainSchema(tool.llmVisibleParams) },
        ]),
      );
    default:
      // Reached from untyped callers (JS, a CLI flag): a wrong name never lowers to `undefined`.
      throw new UnknownProviderError(provider);
  }
}

function openAiParameters(schema: JsonSchema): { parameters: SchemaNode; strict: boolean } {
  const strictSchema = toOpenAiStrictSchema(schema);
  // No strict form (an open root object): send the plain schema as a hint; parseArgs decides.
  return strictSchema === undefined
    ? { parameters: withoutPropertyNames(plainSchema(schema)), strict: false }
    : { parameters: strictSchema, strict: true };
}

// OpenAI documents no `propertyNames` support even outside strict mode; the key bounds it
// carries are enforced by parseArgs anyway.
function withoutPropertyNames(node: SchemaNode): SchemaNode {
  const { propertyNames: _keys, ...rest } = node;
  for (const [key, value] of Object.entries(rest)) {
    if (!isSchemaNode(value)) continue;
    // A `properties` map is keyed by argument names: recurse into its schemas, keep its keys.
    rest[key] = MAPS.has(key)
      ? Object.fromEntries(
          Object.entries(value).map(([name, child]) => [
            name,
            isSchemaNode(child) ? withoutPropertyNames(child) : child,
          ]),
        )
      : withoutPropertyNames(value);
  }
  return rest;
}

const MAPS: ReadonlySet<string> = new Set(['properties', '$defs', 'definitions']);

function plainSchema(schema: JsonSchema): SchemaNode {
  return withoutNoiseDeep(cloneJson(schema) as SchemaNode);
}

function withoutNoiseDeep(node: SchemaNode): SchemaNode {
  const out = withoutNoise(node);
  for (const [key, value] of Object.entries(out)) {
    if (Array.isArray(value)) {
      out[key] = value.map((entry) => (isSchemaNode(entry) ? withoutNoiseDeep(entry) : entry));
    } else if (isSchemaNode(value)) {
      out[key] = withoutNoiseDeep(value);
    }
  }
  return out;
}
