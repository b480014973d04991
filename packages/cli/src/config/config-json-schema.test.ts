import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_PATH, renderConfigJsonSchema } from './config-json-schema.js';

describe('the published config JSON Schema', () => {
  it('is up to date with the zod schema (regenerate with write-config-schema.ts)', () => {
    const file = fileURLToPath(new URL(`../../${CONFIG_SCHEMA_PATH}`, import.meta.url));

    const published: unknown = JSON.parse(readFileSync(file, 'utf8'));

    expect(published).toEqual(JSON.parse(renderConfigJsonSchema()));
  });

  it('refuses unknown top-level keys', () => {
    const schema = JSON.parse(renderConfigJsonSchema()) as { additionalProperties?: unknown };

    expect(schema.additionalProperties).toBe(false);
  });

  it('publishes the process section: a sandbox enum and absolute-path patterns', () => {
    const schema = JSON.parse(renderConfigJsonSchema()) as {
      properties: { process: { properties: Record<string, Record<string, unknown>> } };
    };
    const section = schema.properties.process.properties;
    const items = (section['readOnlyPaths']?.['items'] ?? {}) as { pattern?: string };
    // Editors and validators compile JSON Schema patterns as unicode regular expressions.
    const pattern = new RegExp(items.pattern ?? '', 'u');

    expect(section['sandbox']).toMatchObject({ enum: ['required', 'off'] });
    expect(['/opt/x', '/a/..b'].map((entry) => pattern.test(entry))).toEqual([true, true]);
    expect(['opt/x', '/', '/a/../b', '/a/..'].some((entry) => pattern.test(entry))).toBe(false);
  });
});
