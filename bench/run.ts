import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { BenchRow } from './bench-row.js';

// Runs every bench/<name>/index.ts (or only the names given as arguments) and prints one
// markdown table. Run with `npm run bench [-- name …]`.

// Workspace packages resolve to their TypeScript sources only under the `source` condition;
// without it Node would look for an unbuilt dist/. Re-run once with it.
if (!process.execArgv.includes('--conditions=source')) {
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

// A bench's `runLast` rows depend on disk writeback (spills): they run after every bench's
// `run`, so the dirty pages they leave cannot slow the rows measured after them.
interface BenchModule {
  run?: () => Promise<BenchRow[]>;
  runLast?: () => Promise<BenchRow[]>;
}
const modules: BenchModule[] = [];
for (const name of names) {
  const modulePath = join(benchDir, name, 'index.ts');
  try {
    modules.push((await import(pathToFileURL(modulePath).href)) as BenchModule);
  } catch (error) {
    process.stderr.write(`bench ${name}: not loaded (${String(error)})\n`);
  }
}
const rows: BenchRow[] = [];
for (const module of modules) if (module.run !== undefined) rows.push(...(await module.run()));
// Whatever the earlier rows left dirty is written back first, so the flusher does not wake in
// the middle of the rows that time writes of their own.
spawnSync('sync', { stdio: 'ignore' });
for (const module of modules)
  if (module.runLast !== undefined) rows.push(...(await module.runLast()));

const format = (value: number): string => value.toFixed(1);
const lines = [
  '| bench | subject | baseline | subject µs/op | baseline µs/op | ratio | target |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (row) =>
      `| ${row.name} | ${row.subject} | ${row.baseline} | ${format(row.subjectUs)} | ${format(row.baselineUs)} | ${row.ratio.toFixed(2)}x | ${row.target ?? ''} |`,
  ),
];
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Linux ${release()}, Node ${process.versions.node}, load average at the end ${loadavg()
  .map((load) => load.toFixed(2))
  .join(' ')}`;
process.stdout.write(`Machine: ${machine}\n\n${lines.join('\n')}\n`);
