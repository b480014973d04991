import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDocs } from './check-docs.js';
import { runBlock } from './runnable-blocks.js';
import { checkSize } from './size-budgets.js';

// The fixtures folder stands in for a repository, so the checker meets each failure it must catch.
const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('fixtures', import.meta.url));
const budgets = [{ pattern: /^over-budget\.md$/, maxBytes: 1024 }];

function problemsOf(file: string): readonly string[] {
  return checkDocs(fixtures, [file], budgets).problems;
}

describe('the docs check', () => {
  it('passes a page whose links, anchors and references all resolve', () => {
    expect(problemsOf('good.md')).toEqual([]);
  });

  it('reports a link to a missing file', () => {
    expect(problemsOf('broken-link.md')).toEqual([
      'broken-link.md:3: link gone.md points to a missing file',
    ]);
  });

  it('reports an anchor missing in another page and in its own page', () => {
    expect(problemsOf('missing-anchor.md')).toEqual([
      'missing-anchor.md:3: link other.md#tear-down-the-host: no heading with the anchor #tear-down-the-host',
      'missing-anchor.md:3: link #nowhere: no heading with the anchor #nowhere',
    ]);
  });

  it('reports a page over its budget', () => {
    expect(problemsOf('over-budget.md')).toEqual([
      expect.stringMatching(/^over-budget\.md: \d+ bytes, over its budget of 1024$/),
    ]);
  });

  it('reports a README inside src/', () => {
    expect(problemsOf('src/README.md')).toEqual([
      'src/README.md: a README inside src/; move it to docs/',
    ]);
  });

  it('collects only the blocks marked runnable, not one shown inside a longer fence', () => {
    const { blocks } = checkDocs(fixtures, ['good.md'], budgets);

    expect(blocks.map(({ line, language }) => [line, language])).toEqual([
      [23, 'module'],
      [30, 'shell'],
    ]);
  });

  it("runs the good page's blocks to exit 0", async () => {
    const { blocks } = checkDocs(fixtures, ['good.md'], budgets);

    const outcomes = await Promise.all(blocks.map((block) => runBlock(repo, block)));

    expect(outcomes.map(({ ok, detail }) => (ok ? 'ok' : detail))).toEqual(['ok', 'ok']);
  });

  it('reports a runnable block that exits 1, with its stderr', async () => {
    const { blocks } = checkDocs(fixtures, ['failing-block.md'], budgets);

    const outcomes = await Promise.all(blocks.map((block) => runBlock(repo, block)));

    expect(outcomes).toEqual([
      { ok: false, detail: expect.stringContaining('the block failed on purpose') },
      { ok: false, detail: expect.stringMatching(/^exited with 1\n$/) },
    ]);
  });
  it('stops a block that outlives its timeout, with what it started', async () => {
    const block = {
      file: 'slow.md',
      line: 1,
      language: 'shell' as const,
      body: 'sleep 30 &\nwait',
    };
    const started = Date.now();

    const outcome = await runBlock(repo, block, 500);

    expect(outcome).toEqual({ ok: false, detail: 'timed out after 500 ms\n' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('SIZE_BUDGETS', () => {
  it.each([
    ['README.md', 12 * 1024 + 1, 'over its budget of 12288'],
    ['docs/guide.md', 8 * 1024 + 1, 'over its budget of 8192'],
    ['docs/guide.md', 3 * 1024 - 1, 'under its minimum of 3072'],
    ['packages/core/README.md', 6 * 1024 + 1, 'over its budget of 6144'],
    ['examples/README.md', 6 * 1024 + 1, 'over its budget of 6144'],
    ['packages/cli/src/mcp/README.md', 10, 'a README inside src/'],
  ])('refuses %s at %i bytes', (path, bytes, reason) => {
    expect(checkSize(path, bytes)).toEqual([expect.stringContaining(reason)]);
  });

  it.each([
    ['README.md', 12 * 1024],
    ['docs/guide.md', 5000],
    ['docs/benchmarks.md', 100_000],
    ['packages/core/README.md', 6 * 1024],
    ['CHANGELOG.md', 100_000],
  ])('accepts %s at %i bytes', (path, bytes) => {
    expect(checkSize(path, bytes)).toEqual([]);
  });
});
