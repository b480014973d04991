import type { FileSearchMatch, FileSearchResult, FileSearchStop } from '../tool-host.js';

/**
 * What the model is shown for a search: a summary line (how many matching lines in how many
 * files, whether a bound cut it), then one `path:line:column: text` line per match, grep-style;
 * with context, `path-line- text` lines around it and `--` between groups. Pretty JSON spent
 * about 120 bytes of the result bound on a match's keys and quotes alone.
 */
export function searchModelText(result: FileSearchResult): string {
  const lines = [summaryLine(result)];
  const withContext = result.matches.some(
    (match) => (match.before?.length ?? 0) > 0 || (match.after?.length ?? 0) > 0,
  );
  for (const [index, match] of result.matches.entries()) {
    if (withContext && index > 0) lines.push('--');
    lines.push(...matchLines(match));
  }
  return lines.join('\n');
}

const STOPS: Record<FileSearchStop, string> = {
  max_results: 'cut at maxResults: narrow path or glob, or raise maxResults, to see the rest',
  file_limit: 'cut: the search reached its file limit; narrow path or glob to see the rest',
  byte_limit: 'cut: the search reached its byte limit; narrow path or glob to see the rest',
  time_limit: 'cut: the search ran out of time; narrow path or glob to see the rest',
};

function summaryLine(result: FileSearchResult): string {
  const count = result.matches.length;
  const files = result.filesSearched;
  const parts = [
    `${count} matching ${count === 1 ? 'line' : 'lines'} in ${files} ${files === 1 ? 'file' : 'files'} searched`,
    result.truncated ? STOPS[result.stoppedBy ?? 'max_results'] : 'complete',
  ];
  const skipped = result.skipped;
  if (skipped !== undefined) {
    const notes = [
      skipped.ignored > 0 ? `${skipped.ignored} ignored` : '',
      skipped.binary > 0 ? `${skipped.binary} binary` : '',
      skipped.tooLarge > 0 ? `${skipped.tooLarge} too large` : '',
    ].filter((note) => note !== '');
    if (notes.length > 0) parts.push(`skipped: ${notes.join(', ')}`);
  }
  return `${parts.join('; ')}.`;
}

function matchLines(match: FileSearchMatch): string[] {
  const name = shown(match.path);
  const before = match.before ?? [];
  const after = match.after ?? [];
  return [
    ...before.map((text, index) => `${name}-${match.line - before.length + index}- ${flat(text)}`),
    `${name}:${match.line}:${match.column}: ${flat(match.text)}`,
    ...after.map((text, index) => `${name}-${match.line + 1 + index}- ${flat(text)}`),
  ];
}

// A path is untrusted: one with a line break, a control character or a `:` would forge or
// misparse a result line, so those are shown as JSON strings.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_QUOTES = /[\u0000-\u001f\u007f\u2028\u2029:]|^["\s]|\s$/u;

function shown(name: string): string {
  if (!NEEDS_QUOTES.test(name)) return name;
  // JSON leaves U+2028/U+2029 raw, and some readers break lines at them.
  return JSON.stringify(name)
    .replace(/\u2028/gu, '\\u2028')
    .replace(/\u2029/gu, '\\u2029');
}

// File text is untrusted too: a stray CR or a Unicode line separator would start a forged line.
function flat(text: string): string {
  return text.replace(/[\r\u2028\u2029\u0085\v\f]/gu, ' ');
}
