import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Tests read the corpus from this repository so CI needs nothing beside the clone; where the
// workspace's shared corpus is present, the copy must not have drifted from it.
const here = path.dirname(fileURLToPath(import.meta.url));
const shared = path.resolve(here, '../../shared/corpus');
const files = ['commands.json', 'paths.json', 'secrets.json', 'ssrf.json'];

describe('the vendored guardrail corpus', () => {
  it.each(files)('%s parses to a non-empty table of unique ids', (file) => {
    const cases = JSON.parse(readFileSync(path.join(here, 'corpus', file), 'utf8')) as {
      id: string;
    }[];

    expect(cases.length).toBeGreaterThan(10);
    expect(new Set(cases.map((entry) => entry.id)).size).toBe(cases.length);
  });

  it.runIf(existsSync(shared)).each(files)('%s equals the shared corpus', (file) => {
    const vendored = readFileSync(path.join(here, 'corpus', file), 'utf8');

    expect(JSON.parse(vendored)).toEqual(JSON.parse(readFileSync(path.join(shared, file), 'utf8')));
  });
});
