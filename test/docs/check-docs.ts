import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkLinks } from './check-links.js';
import { parseMarkdown } from './parse-markdown.js';
import { runnableBlocks, type RunnableBlock } from './runnable-blocks.js';
import { checkSize, SIZE_BUDGETS, type SizeBudget } from './size-budgets.js';

/** What checking a set of pages finds: every problem at once, and the blocks to run. */
export interface DocsReport {
  readonly problems: readonly string[];
  readonly blocks: readonly RunnableBlock[];
}

/** Checks links, anchors and budgets of `files` (repo-relative) and collects their runnable blocks. */
export function checkDocs(
  repo: string,
  files: readonly string[],
  budgets: readonly SizeBudget[] = SIZE_BUDGETS,
): DocsReport {
  const problems: string[] = [];
  const blocks: RunnableBlock[] = [];
  for (const file of files) {
    const source = readFileSync(join(repo, file));
    const page = parseMarkdown(source.toString('utf8'));
    problems.push(...checkSize(file, source.byteLength, budgets), ...checkLinks(repo, file, page));
    try {
      blocks.push(...runnableBlocks(file, page.blocks));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return { problems, blocks };
}

/** The tracked markdown files the docs check covers: everything but its own fixtures. */
export function trackedMarkdown(repo: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', '*.md'], {
    cwd: repo,
    encoding: 'utf8',
  });
  return (
    listed
      .split('\0')
      .filter(
        (file) =>
          file !== '' && !file.includes('node_modules/') && !file.startsWith('test/docs/fixtures/'),
      )
      // A file deleted but not yet staged is gone from the page set GitHub will show.
      .filter((file) => existsSync(join(repo, file)))
  );
}
