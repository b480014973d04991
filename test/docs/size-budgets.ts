const KB = 1024;

/** A size rule for the markdown files whose repo-relative path matches `pattern`. */
export interface SizeBudget {
  readonly pattern: RegExp;
  readonly minBytes?: number;
  readonly maxBytes?: number;
}

/** The docs' size budgets, first match wins: one place to read or change them. */
export const SIZE_BUDGETS: readonly SizeBudget[] = [
  { pattern: /^README\.md$/, maxBytes: 12 * KB },
  // The one page exempt from a budget: it holds the whole benchmark table.
  { pattern: /^docs\/benchmarks\.md$/ },
  { pattern: /^docs\/[^/]+\.md$/, minBytes: 3 * KB, maxBytes: 8 * KB },
  { pattern: /^packages\/[^/]+\/README\.md$/, maxBytes: 6 * KB },
  { pattern: /^examples\/README\.md$/, maxBytes: 6 * KB },
];

/** Returns a problem for a file over or under its budget, or a README inside a `src/` tree. */
export function checkSize(
  path: string,
  bytes: number,
  budgets: readonly SizeBudget[] = SIZE_BUDGETS,
): string[] {
  // A README under src/ is read by nobody browsing the docs: its content belongs in docs/.
  if (/(^|\/)src\/(.*\/)?README\.md$/i.test(path))
    return [`${path}: a README inside src/; move it to docs/`];
  const budget = budgets.find(({ pattern }) => pattern.test(path));
  if (budget === undefined) return [];
  if (budget.maxBytes !== undefined && bytes > budget.maxBytes) {
    return [`${path}: ${bytes} bytes, over its budget of ${budget.maxBytes}`];
  }
  if (budget.minBytes !== undefined && bytes < budget.minBytes) {
    return [
      `${path}: ${bytes} bytes, under its minimum of ${budget.minBytes}; merge it into a neighbour`,
    ];
  }
  return [];
}
