/**
 * One config variable as git listed it: section and variable lowercase, subsection as written
 * (`undefined`: none; `''`: an empty `[x ""]`), value `undefined` for a bare `key` (boolean true).
 */
export interface GitConfigEntry {
  readonly section: string;
  readonly subsection: string | undefined;
  readonly variable: string;
  readonly value: string | undefined;
}

/** The entries of a `git config --list -z` output, in order, and how many records were unusable. */
export interface ParsedGitConfigListing {
  readonly entries: readonly GitConfigEntry[];
  readonly unusable: number;
}

/**
 * Splits `git config --list -z` output: records end in NUL, a record is `key\nvalue` or a bare
 * `key`. Git prints keys and values as C strings, so neither can hold a NUL and the split is
 * exact. A record that is not valid UTF-8 or whose key is not in git's canonical shape is
 * counted as unusable, never guessed at.
 */
export function parseGitConfigListing(stdout: Buffer): ParsedGitConfigListing {
  const entries: GitConfigEntry[] = [];
  let unusable = 0;
  let start = 0;
  while (start < stdout.length) {
    const end = stdout.indexOf(0, start);
    // A record cut off without its NUL (output ended early) is not trusted.
    if (end === -1) {
      unusable += 1;
      break;
    }
    const entry = parseRecord(stdout.subarray(start, end));
    if (entry === undefined) unusable += 1;
    else entries.push(entry);
    start = end + 1;
  }
  return { entries, unusable };
}

/**
 * Writes entries back in git's config syntax, in order: a header per run of entries sharing a
 * section and subsection, every value double-quoted (so `#`, `;`, and edge spaces are data),
 * a bare key left bare (git reads it as true; `key = true` would differ under `--list`).
 */
export function serialiseGitConfig(entries: readonly GitConfigEntry[]): string {
  let text = '';
  let header: string | undefined;
  for (const { section, subsection, variable, value } of entries) {
    const next =
      subsection === undefined ? `[${section}]` : `[${section} "${escapeSubsection(subsection)}"]`;
    if (next !== header) {
      text += `${next}\n`;
      header = next;
    }
    text += value === undefined ? `\t${variable}\n` : `\t${variable} = "${escapeValue(value)}"\n`;
  }
  return text;
}

// What git prints: lowercase section (the part before the first dot has none) and variable.
const SECTION = /^[a-z0-9-]+$/;
const VARIABLE = /^[a-z][a-z0-9-]*$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseRecord(record: Buffer): GitConfigEntry | undefined {
  const newline = record.indexOf(0x0a);
  let key: string;
  let value: string | undefined;
  try {
    key = utf8.decode(newline === -1 ? record : record.subarray(0, newline));
    value = newline === -1 ? undefined : utf8.decode(record.subarray(newline + 1));
  } catch {
    return undefined;
  }
  // Section up to the first dot, variable after the last: a subsection may itself hold dots,
  // and this is the split git uses to read `remote.<name>.url` back.
  const firstDot = key.indexOf('.');
  const lastDot = key.lastIndexOf('.');
  if (firstDot === -1) return undefined;
  const section = key.slice(0, firstDot);
  const variable = key.slice(lastDot + 1);
  if (!SECTION.test(section) || !VARIABLE.test(variable)) return undefined;
  const subsection = firstDot === lastDot ? undefined : key.slice(firstDot + 1, lastDot);
  return { section, subsection, variable, value };
}

// Inside a quoted subsection only `\` and `"` are special (git drops any other backslash).
function escapeSubsection(subsection: string): string {
  return subsection.replace(/["\\]/g, (character) => `\\${character}`);
}

// Inside a quoted value git reads `\\ \" \n \t \b`; a raw newline would end the line.
function escapeValue(value: string): string {
  return value.replace(/["\\\n\t\b]/g, (character) => VALUE_ESCAPES[character] ?? character);
}

const VALUE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\t': '\\t',
  '\b': '\\b',
};
