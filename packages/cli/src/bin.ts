#!/usr/bin/env node
import { main } from './main.js';

// `toolhost tools | head -1`: a reader that went away is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// No top-level await: the published binary is also bundled as one script (CommonJS), which has none.
void main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
}).then((code) => {
  process.exitCode = code;
  // Exit explicitly once stdout has drained: a paused stdin or a lingering handle must not keep a
  // finished command alive.
  process.stdout.write('', () => process.exit(code));
});
