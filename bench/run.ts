import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { BenchRow } from './bench-row.js';

// Runs every bench/<name>/index.ts (or only the names given as arguments) and prints one
// markdown table. Run with `npm run bench [-- name …]`.

// Workspace packages resolve to their TypeScript sources only under the `source` condition;
// without it Node would look for an unbuilt dist/. Re-run once with it.
if (!process.execArgv.includes('--conditions=source')) {
  const { spawnSync } = await import('node:child_process');
  const child = spawnSync(
    process.execPath,
    ['--conditions=source', ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  process.exit(child.status ?? 1);
}

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const entries = await readdir(benchDir, { withFileTypes: true });
const names = entries
  .filter((entry) => entry.isDirectory() && (only.length === 0 || only.includes(entry.name)))
  .map((entry) => entry.name)
  .sort();

const rows: BenchRow[] = [];
for (const name of names) {
  const modulePath = join(benchDir, name, 'index.ts');
  let module: { run?: () => Promise<BenchRow[]> };
  try {
    module = (await import(pathToFileURL(modulePath).href)) as typeof module;
  } catch {
    continue;
  }
  if (typeof module.run === 'function') rows.push(...(await module.run()));
}

const format = (value: number): string => value.toFixed(1);
const lines = [
  '| bench | subject | baseline | subject µs/op | baseline µs/op | ratio | target |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (row) =>
      `| ${row.name} | ${row.subject} | ${row.baseline} | ${format(row.subjectUs)} | ${format(row.baselineUs)} | ${row.ratio.toFixed(2)}x | ${row.target ?? ''} |`,
  ),
];
process.stdout.write(`${lines.join('\n')}\n`);
