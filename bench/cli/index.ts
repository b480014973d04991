import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureUs, type BenchRow } from '../bench-row.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DIST_BIN = join(REPO, 'packages/cli/dist/bin.js');

/**
 * Wall time of one `toolhost` process end to end (start, config, host, dispatch, exit), against
 * a bare `node -e 0` start. The built binary when present (`npm run build`), else the sources.
 */
export async function run(): Promise<BenchRow[]> {
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-cli-'));
  const root = join(base, 'app');
  spawnSync('mkdir', [root]);
  writeFileSync(join(root, 'notes.txt'), 'hello\n');
  const built = existsSync(DIST_BIN);
  const binArgv = built
    ? [DIST_BIN]
    : [
        '--conditions=source',
        '--import',
        join(REPO, 'node_modules/tsx/dist/loader.mjs'),
        join(REPO, 'packages/cli/src/bin.ts'),
      ];
  const state = ['--state-dir', join(base, 'state')];
  const once = (args: readonly string[]) => () =>
    Promise.resolve(spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' }));
  const options = { iterations: 5, rounds: 3, warmup: 1 };
  try {
    const baselineUs = await measureUs(once(['-e', '0']), options);
    const rows: BenchRow[] = [];
    for (const [name, args] of [
      ['cli call read_file', ['call', 'read_file', '{"path":"notes.txt"}']],
      [
        'cli explain run_command',
        ['explain', 'run_command', '{"command":"ls"}', '--tools', 'run_command'],
      ],
    ] as const) {
      const subjectUs = await measureUs(once([...binArgv, ...args, ...state]), options);
      rows.push({
        name,
        subject: `toolhost ${args[0]} (${built ? 'dist' : 'tsx sources'})`,
        baseline: 'node -e 0',
        subjectUs,
        baselineUs,
        ratio: subjectUs / baselineUs,
      });
    }
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
