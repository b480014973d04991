import type { DirectoryEntry, DirectoryListing } from '../tool-host.js';

/**
 * What the model is shown for a listing: a summary line (how many entries in all, whether the
 * page was cut), then one line per entry grouped under its directory (`src/` then its children
 * indented, `/` ending a directory), then the cursor for the next page. Pretty JSON spent ~150
 * bytes an entry, so the result bound showed a third of a 1000-entry page; this spends ~20.
 */
export function listingModelText(listing: DirectoryListing, recursive: boolean): string {
  // One string built in a single pass: a line array, a template per line and a regex per name
  // cost more than the ~20 bytes each entry adds.
  let text = summaryLine(listing, recursive);
  let group: string | undefined;
  const { entries } = listing;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as DirectoryEntry;
    const name = entry.name;
    // Scanning back to the last `/` also tells whether the leaf is all printable ASCII.
    let cut = name.length - 1;
    let printable = true;
    for (; cut >= 0; cut--) {
      const unit = name.charCodeAt(cut);
      if (unit === SLASH) break;
      if (unit <= SPACE || unit >= DELETE) printable = false;
    }
    const directory = cut === -1 ? '.' : cut === 0 ? '/' : undefined;
    // `name.slice(0, cut) === group`, told without cutting a string for every entry.
    const sameGroup =
      directory === undefined
        ? group !== undefined && group.length === cut && name.startsWith(group)
        : directory === group;
    if (!sameGroup) {
      group = directory ?? name.slice(0, cut);
      text += group.endsWith('/') ? `\n${shown(group)}` : `\n${shown(group)}/`;
    }
    const leaf = name.slice(cut + 1);
    // Printable ASCII holds no control character or blank: only a leading quote needs quoting.
    text += '\n  ';
    text += printable && leaf.charCodeAt(0) !== QUOTE ? leaf : shown(leaf);
    text += suffixOf(entry);
  }
  if (listing.cursor !== undefined)
    text += `\nnext page: list_directory with the same arguments and cursor "${listing.cursor}"`;
  return text;
}

const SLASH = 0x2f;
const SPACE = 0x20;
const DELETE = 0x7f;
const QUOTE = 0x22;

function summaryLine(listing: DirectoryListing, recursive: boolean): string {
  const count = listing.entries.length;
  const { total, truncated, cursor, ignored } = listing;
  const order = recursive ? ' (breadth-first)' : '';
  const parts =
    truncated === true
      ? [
          `${count} of ${countOf(total, listing.totalExact)}${order}`,
          cursor === undefined
            ? 'cut: list a subdirectory or narrow the glob to see the rest'
            : 'cut: more remain, pass the cursor below for the next page',
        ]
      : total !== undefined && total > count
        ? [`${count} of ${countOf(total, true)}${order}`, 'last page']
        : [`${countOf(count, true)}${order}`, 'complete'];
  if (ignored !== undefined && ignored > 0)
    parts.push(`${ignored} .git/node_modules skipped (includeIgnored: true lists them)`);
  return `${parts.join('; ')}.`;
}

function countOf(total: number | undefined, exact: boolean | undefined): string {
  if (total === undefined) return 'more entries';
  const noun = total === 1 ? 'entry' : 'entries';
  return exact === false ? `at least ${total} ${noun}` : `${total} ${noun}`;
}

function suffixOf(entry: DirectoryEntry): string {
  switch (entry.type) {
    case 'directory':
      return '/';
    case 'file':
      return ` (${entry.sizeBytes} B)`;
    case 'symlink':
      return ' (symlink, not followed)';
    default:
      return ' (other)';
  }
}

// A name is untrusted: one with a line break or a control character would forge lines of the
// listing, and leading or trailing blanks would vanish, so those are shown as JSON strings.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_QUOTES = /[\u0000-\u001f\u007f\u2028\u2029]|^["\s]|\s$/u;

function shown(name: string): string {
  if (!NEEDS_QUOTES.test(name)) return name;
  // JSON leaves U+2028/U+2029 raw, and some readers break lines at them.
  return JSON.stringify(name)
    .replace(/\u2028/gu, '\\u2028')
    .replace(/\u2029/gu, '\\u2029');
}
