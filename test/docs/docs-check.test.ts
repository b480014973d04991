import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDocs, trackedMarkdown } from './check-docs.js';
import { limit } from './limit.js';
import { runBlock } from './runnable-blocks.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const report = checkDocs(repo, trackedMarkdown(repo));
const slot = limit(2);

// Runnable blocks import the built packages: run `npm run build` first.
describe('the docs', () => {
  it('have every relative link and anchor resolving, and every page within its budget', () => {
    // One assertion listing every problem, so a rewrite sees all it has left at once.
    expect(report.problems.join('\n')).toBe('');
  });

  for (const block of report.blocks) {
    it.concurrent(
      `runs ${block.file}:${block.line}`,
      async () => {
        const outcome = await slot(() => runBlock(repo, block));

        expect(outcome.ok, `${block.file}:${block.line} ${outcome.detail}`).toBe(true);
      },
      // Queued behind other blocks, then its own 60 s limit.
      180_000,
    );
  }
});
