import { BUILTIN_TOOLS } from '@toolhost/core';
import { markUntrusted } from '@toolhost/core/host';
import type { LoopDispatchOutcome } from '@toolhost/core/loop';
import { describe, expect, it } from 'vitest';
import { StructuredResultError, withStructuredContent } from './to-structured-content.js';

const tool = (id: string) => {
  const found = BUILTIN_TOOLS.find((entry) => entry.id === id);
  if (found === undefined) throw new Error(`no built-in ${id}`);
  return found;
};
const outcome = (result: unknown): LoopDispatchOutcome => ({
  toolResult: markUntrusted({ type: 'tool_result', result }),
});
const text = { content: [{ type: 'text' as const, text: 'as shown' }] };

describe('withStructuredContent', () => {
  it('adds the record and keeps the text part as it was', () => {
    const result = withStructuredContent(
      text,
      tool('write_file'),
      outcome({ path: 'a', bytesWritten: 2 }),
    );

    expect(result).toEqual({ ...text, structuredContent: { path: 'a', bytesWritten: 2 } });
  });

  it('leaves a tool without an output schema alone', () => {
    expect(withStructuredContent(text, tool('read_file'), outcome({ content: 'x' }))).toBe(text);
  });

  it('refuses to send a record outside the listed shape, naming no value', () => {
    const attempt = () =>
      withStructuredContent(text, tool('write_file'), outcome({ path: 'secret-value' }));

    expect(attempt).toThrow(StructuredResultError);
    expect(attempt).toThrow(/^toolhost: write_file returned a result outside its output schema$/);
  });
});
