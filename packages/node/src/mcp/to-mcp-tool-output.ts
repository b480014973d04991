import { redactText } from '@toolhost/core/redact';

/** The slice of a `CallToolResult` the model view reads (structural, so SDK variants fit). */
export interface McpResultView {
  readonly content: readonly McpContentView[];
  readonly structuredContent?: unknown;
}

/** One content block, loosely: the fields each block type may carry. */
export interface McpContentView {
  readonly type: string;
  readonly text?: unknown;
  readonly mimeType?: unknown;
  readonly uri?: unknown;
  readonly resource?: { readonly text?: unknown; readonly mimeType?: unknown };
}

/** The most text an `isError` detail may carry back to the model. */
export const MAX_ERROR_DETAIL_CHARS = 2_000;

/**
 * A tool result as the model sees it: the text of its content blocks, or the structured content
 * when there is no text. Binary blocks become a one-line marker, never inline base64.
 */
export function toMcpToolOutput(result: McpResultView): unknown {
  const text = contentToText(result.content);
  if (text === '' && result.structuredContent !== undefined) return result.structuredContent;
  return text;
}

/** The bounded text of an `isError` result, for `ToolExecutionError.detail`. */
export function toMcpErrorDetail(result: McpResultView): string {
  const text = contentToText(result.content);
  const detail = text === '' ? 'the tool reported an error' : text;
  // The detail reaches the model and the logs: a server echoing a token must not carry it on.
  const redacted = redactText(detail);
  return redacted.length <= MAX_ERROR_DETAIL_CHARS
    ? redacted
    : `${redacted.slice(0, MAX_ERROR_DETAIL_CHARS)}… [truncated]`;
}

function contentToText(content: readonly McpContentView[]): string {
  return content
    .map((block) => {
      switch (block.type) {
        case 'text':
          return asText(block.text);
        case 'image':
        case 'audio':
          return `[${block.type} omitted: ${asText(block.mimeType)}]`;
        case 'resource_link':
          return `[resource link: ${asText(block.uri)}]`;
        case 'resource':
          return typeof block.resource?.text === 'string'
            ? block.resource.text
            : `[resource omitted: ${asText(block.resource?.mimeType) || 'binary'}]`;
        default:
          return '';
      }
    })
    .filter((part) => part !== '')
    .join('\n');
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
