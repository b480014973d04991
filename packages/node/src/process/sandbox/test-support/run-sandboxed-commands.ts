// A separate host process for the two-process test: runs `count` sandboxed commands on one
// workspace, `concurrency` at a time, and prints how many failed and why (one JSON line).
import { createNodeToolHost } from '../../../create-node-tool-host.js';

const [root, stateDir, count, concurrency] = process.argv.slice(2);
const { host, close } = await createNodeToolHost({
  root: root ?? '',
  stateDir: stateDir ?? '',
  process: { sandbox: 'required', timeoutMs: 60_000 },
});
const spawnInHost = host.process?.spawn;
if (spawnInHost === undefined) throw new Error('no process arm');
let next = 0;
const failures: string[] = [];
const worker = async (): Promise<void> => {
  while (next < Number(count)) {
    next += 1;
    try {
      const result = await spawnInHost(
        '/bin/sh',
        ['-c', 'ls .git/hooks >/dev/null; echo ok'],
        {},
        {},
      );
      if (result.exitCode !== 0 || result.stdout !== 'ok\n')
        failures.push(`exit ${result.exitCode}`);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
};
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
await close();
console.log(JSON.stringify({ failures }));
