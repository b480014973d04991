import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireArmBeforeEffect } from '../dispatch/require-arm.js';
import { refusedBeforeEffect, ToolUnavailableError } from '../errors.js';
import type { FileSearchResult } from '../tool-host.js';
import { withModelView } from '../with-model-view.js';
import { MAX_PATH_LENGTH, pathString } from './arg-bounds.js';
import { dropUndefined } from './drop-undefined.js';
import { searchModelText } from './search-files-text.js';
import { READ_ONLY_EFFECT } from './tool-effects.js';

const ID = 'search_files';
/** Longest pattern accepted: a search term, not a document. */
export const MAX_PATTERN_LENGTH = 1000;
/** The most matching lines one search may ask for. */
export const MAX_SEARCH_RESULTS = 1000;
/** The most context lines one search may ask for on each side of a match. */
export const MAX_CONTEXT_LINES = 10;

/** Searches file contents inside the workspace for a literal or an RE2 regular expression. */
export const searchFilesTool = defineTool({
  id: ID,
  source: 'builtin',
  description:
    'Search the text of the files inside the workspace for a literal string (or, with regex true, an RE2 regular expression: no backreferences or lookaround), one line per matching line as "path:line:column: text". It honours .gitignore, skips .git, node_modules, binary, protected and very large files, filters file paths by glob, adds contextLines around each match, and a cut result says so: narrow path or glob to see the rest.',
  args: z.strictObject({
    pattern: z
      .string()
      .min(1)
      .max(MAX_PATTERN_LENGTH)
      // Matches are reported per line, so a line break in the pattern could never match one.
      .refine((pattern) => !/[\r\n]/u.test(pattern), { message: 'line_break' })
      .describe('The text to find (a regular expression when regex is true), within one line.'),
    path: pathString(
      'Directory (or one file) to search, relative to the workspace root; default the root.',
    ).optional(),
    glob: z
      .string()
      .min(1)
      .max(MAX_PATH_LENGTH)
      .optional()
      .describe('Only search files whose path matches this glob ("*.ts" matches at any depth).'),
    regex: z.boolean().optional().describe('Treat pattern as an RE2 regular expression.'),
    caseSensitive: z.boolean().optional().describe('Match case exactly (default true).'),
    contextLines: z
      .int()
      .min(0)
      .max(MAX_CONTEXT_LINES)
      .optional()
      .describe('Lines of context to show before and after each match.'),
    maxResults: z
      .int()
      .min(1)
      .max(MAX_SEARCH_RESULTS)
      .optional()
      .describe('The most matching lines to return (default 100).'),
  }),
  // A read: not governed, never journaled (the flags say read, and journal stays absent).
  policy: {
    fsScoped: true,
    spawnsProcess: false,
    requiresGateApproval: false,
    effect: READ_ONLY_EFFECT,
  },
  policyTarget: (args) => ({ path: args.path ?? '.' }),
  async dispatch(args, host, ctx) {
    const fs = requireArmBeforeEffect(ID, host.fs, 'fs');
    // A host without search is a host gap, not something the model can fix.
    if (fs.searchFiles === undefined) {
      throw refusedBeforeEffect(new ToolUnavailableError(ID, 'fs.searchFiles'));
    }
    const result = await fs.searchFiles(dropUndefined(args), ctx.signal);
    // Workflow state keeps the structured matches; the model reads one line per match.
    return withModelView(stateOf(result), searchModelText(result));
  },
});

function stateOf(result: FileSearchResult): FileSearchResult {
  const { matches, truncated, stoppedBy, filesSearched, skipped } = result;
  return dropUndefined({ matches, truncated, stoppedBy, filesSearched, skipped });
}
