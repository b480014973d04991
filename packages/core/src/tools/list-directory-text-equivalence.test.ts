import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DirectoryEntry, DirectoryListing } from '../tool-host.js';
import { listingModelText } from './list-directory-text.js';
import { legacyListingModelText } from './test-support/legacy-list-directory-text.js';

// `listingModelText` was rewritten as one pass (a scan per name instead of a regex, one string
// instead of a line array): the model must be shown the same bytes for every listing, hostile
// names included.

// Units the quoting rule turns on: separators, every blank `\s` knows, control characters, quotes,
// line separators, a lone surrogate and an astral character.
const TRICKY = [
  '/',
  '/',
  '.',
  '"',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u200b',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  '\\',
  'a',
  'Z',
  '0',
  '~',
  '!',
];
const unit = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 1, unit: 'grapheme' }));
const trickyName = fc.array(unit, { maxLength: 24 }).map((units) => units.join(''));
// Breadth-first listings repeat directories: names drawn from a few of them, so groups form.
const pathName = fc
  .tuple(
    fc.constantFrom('', 'src', 'src/lib', '.', '/', 'a//b', ' d', 'd\n', '"q"', 'x/'),
    trickyName,
  )
  .map(([directory, leaf]) => (directory === '' ? leaf : `${directory}/${leaf}`));
const name = fc.oneof(
  pathName,
  trickyName,
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.string({ minLength: 200, maxLength: 2000 }),
);
const entry: fc.Arbitrary<DirectoryEntry> = fc.record({
  name,
  type: fc.constantFrom('file', 'directory', 'symlink', 'other'),
  sizeBytes: fc.oneof(fc.nat(), fc.constantFrom(0, 1, 4096, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2)),
  lastModified: fc.constant('2026-01-01T00:00:00.000Z'),
});
const listing: fc.Arbitrary<DirectoryListing> = fc.record(
  {
    entries: fc.array(entry, { maxLength: 40 }),
    truncated: fc.boolean(),
    total: fc.nat({ max: 100_000 }),
    totalExact: fc.boolean(),
    cursor: fc.string({ maxLength: 40 }),
    ignored: fc.nat({ max: 5 }),
  },
  { requiredKeys: ['entries'] },
);

describe('listingModelText equivalence', () => {
  it('renders every listing to the same bytes as before the one-pass rewrite', () => {
    fc.assert(
      fc.property(listing, fc.boolean(), (value, recursive) => {
        expect(listingModelText(value, recursive)).toBe(legacyListingModelText(value, recursive));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps grouping the same when runs of one directory are sorted together', () => {
    fc.assert(
      fc.property(fc.array(pathName, { maxLength: 60 }), (names) => {
        const entries = names.sort().map((entryName): DirectoryEntry => ({
          name: entryName,
          type: 'file',
          sizeBytes: entryName.length,
          lastModified: '2026-01-01T00:00:00.000Z',
        }));
        expect(listingModelText({ entries }, true)).toBe(legacyListingModelText({ entries }, true));
      }),
      { numRuns: 2000 },
    );
  });
});
