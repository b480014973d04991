#!/usr/bin/env node
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
// Exit explicitly once stdout has drained: a paused stdin or a lingering handle must not keep a
// finished command alive.
process.stdout.write('', () => process.exit(code));
