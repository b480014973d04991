import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every entry point of every built @toolhost/* package, with the names it exports (values and
// types), against a committed list: adding, moving or removing an export shows up in the diff of
// export-lists.snapshot.json, so it is a decision, not an accident. The root entries of core and
// node hold what an application uses (issue 40); everything else lives on a subpath.
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ROOT_CAP = 60;

interface Entry {
  /** `@toolhost/core`, `@toolhost/core/lowering` … */
  readonly specifier: string;
  /** The entry's TypeScript source (its `source` export condition). */
  readonly source: string;
}

interface Manifest {
  readonly name: string;
  readonly exports?: Record<string, unknown>;
}

/** The code entries of every workspace package that builds a dist (a `source` condition). */
function listEntries(): { entries: Entry[]; otherKeys: string[] } {
  const entries: Entry[] = [];
  const otherKeys: string[] = [];
  for (const dir of readdirSync(path.join(REPO, 'packages')).sort()) {
    const manifestPath = path.join(REPO, 'packages', dir, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const exports = manifest.exports ?? {};
    const hasDist = Object.values(exports).some(
      (target) => typeof target === 'object' && target !== null && 'source' in target,
    );
    if (!hasDist) continue;
    for (const [key, target] of Object.entries(exports)) {
      const specifier = `${manifest.name}${key.slice(1)}`;
      const source =
        typeof target === 'object' && target !== null && 'source' in target
          ? (target as { source: unknown }).source
          : undefined;
      if (typeof source === 'string') {
        entries.push({ specifier, source: path.join(REPO, 'packages', dir, source) });
      } else {
        otherKeys.push(specifier);
      }
    }
  }
  return { entries, otherKeys };
}

/** Each entry's exported names, sorted; a name that is only a type reads `type Name`. */
function exportedNames(entries: readonly Entry[]): Map<string, string[]> {
  const configPath = path.join(REPO, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO);
  const program = ts.createProgram({
    rootNames: entries.map((entry) => entry.source),
    options: { ...parsed.options, noEmit: true },
  });
  const checker = program.getTypeChecker();
  const lists = new Map<string, string[]>();
  for (const entry of entries) {
    const sourceFile = program.getSourceFile(entry.source);
    if (sourceFile === undefined) throw new Error(`${entry.specifier}: ${entry.source} not found`);
    const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
    if (moduleSymbol === undefined) throw new Error(`${entry.specifier} is not a module`);
    const names = checker.getExportsOfModule(moduleSymbol).map((symbol) => {
      const target =
        (symbol.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0 ? symbol.name : `type ${symbol.name}`;
    });
    lists.set(
      entry.specifier,
      names.sort((a, b) => {
        const x = a.replace(/^type /, '');
        const y = b.replace(/^type /, '');
        return x < y ? -1 : x > y ? 1 : 0;
      }),
    );
  }
  return lists;
}

const { entries, otherKeys } = listEntries();
const lists = exportedNames(entries);

describe('the export list of every entry point', () => {
  it('matches the committed list (update it with `npx vitest run -u` when an export is meant)', async () => {
    const snapshot = Object.fromEntries(
      [...lists].map(([specifier, names]) => [`${specifier} (${names.length})`, names]),
    );
    await expect(`${JSON.stringify(snapshot, null, 2)}\n`).toMatchFileSnapshot(
      './export-lists.snapshot.json',
    );
  });

  it('names only JSON files besides the code entries', () => {
    expect(otherKeys.filter((key) => !key.endsWith('.json'))).toEqual([]);
  });

  it.each(['@toolhost/core', '@toolhost/node'])(
    `%s: the root entry holds at most ${ROOT_CAP} names`,
    (specifier) => {
      expect(lists.get(specifier)?.length ?? Infinity).toBeLessThanOrEqual(ROOT_CAP);
    },
  );

  it.each(entries.map((entry) => entry.specifier))(
    '%s: its runtime exports are the listed values',
    async (specifier) => {
      const listed = lists.get(specifier) ?? [];
      const values = listed.filter((name) => !name.startsWith('type '));
      const runtime = Object.keys((await import(specifier)) as Record<string, unknown>).sort();
      expect(runtime.filter((name) => !listed.includes(name))).toEqual([]);
      expect(runtime).toEqual([...values].sort());
    },
  );
});
