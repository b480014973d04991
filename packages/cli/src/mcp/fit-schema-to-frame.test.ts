import { BUILTIN_TOOLS } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import {
  FRAME_ENVELOPE_BYTES,
  fitSchemaToFrame,
  maxStringLengthFor,
} from './fit-schema-to-frame.js';
import { MAX_STDIO_FRAME_BYTES } from './stdio-frame-transport.js';

describe('fitSchemaToFrame', () => {
  it('cuts a maxLength past what one frame carries, JSON-escaped at worst', () => {
    const frame = FRAME_ENVELOPE_BYTES + 6 * 1000;
    const fitted = fitSchemaToFrame(
      { type: 'object', properties: { content: { type: 'string', maxLength: 5000 } } },
      frame,
    );

    expect(fitted.properties.content.maxLength).toBe(1000);
    // Every code unit a control character: `\u001f`, six bytes each.
    expect(JSON.stringify('\u001f'.repeat(1000)).length).toBeLessThanOrEqual(
      frame - FRAME_ENVELOPE_BYTES + 2,
    );
  });

  it('bounds an unbounded string wherever a subschema sits, keeps smaller bounds, copies', () => {
    const schema = {
      type: 'object',
      properties: {
        args: { type: 'array', items: { type: 'string' } },
        headers: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
        choice: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'integer' }] },
      },
    };
    const fitted = fitSchemaToFrame(schema, FRAME_ENVELOPE_BYTES + 600);

    expect(fitted).toEqual({
      type: 'object',
      properties: {
        args: { type: 'array', items: { type: 'string', maxLength: 100 } },
        headers: {
          type: 'object',
          additionalProperties: { type: ['string', 'null'], maxLength: 100 },
        },
        choice: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'integer' }] },
      },
    });
    expect(schema.properties.args.items).toEqual({ type: 'string' });
  });

  it('leaves the built-in schemas whole under the stdio cap: write_file keeps its 8 Mi limit', () => {
    const writeFile = BUILTIN_TOOLS.find((tool) => tool.id === 'write_file');
    const fitted = fitSchemaToFrame({ ...writeFile?.llmVisibleParams }, MAX_STDIO_FRAME_BYTES);

    expect(fitted).toEqual(writeFile?.llmVisibleParams);
    expect(maxStringLengthFor(MAX_STDIO_FRAME_BYTES)).toBeGreaterThanOrEqual(8 * 1024 * 1024);
  });
});
