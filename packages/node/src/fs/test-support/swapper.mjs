// Race fixture: swaps a path between a real entry and a symlink out of the root until killed.
// argv: mode ('final' | 'parent' | 'alias'), root, outside. Prints "ready", then the swap count on SIGTERM.
import {
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';

const [mode, root, outside] = process.argv.slice(2);
let swaps = 0;
let stop = false;
process.on('SIGTERM', () => {
  stop = true;
});

// Holds each state for a moment, so readers meet both states about equally often.
function hold() {
  const until = process.hrtime.bigint() + 100_000n;
  while (process.hrtime.bigint() < until);
}

function swapFinal() {
  writeFileSync(`${root}/.swap-file`, 'INSIDE');
  renameSync(`${root}/.swap-file`, `${root}/t.txt`);
  hold();
  symlinkSync(`${outside}/t.txt`, `${root}/.swap-link`);
  renameSync(`${root}/.swap-link`, `${root}/t.txt`);
  hold();
}

// A host write with createDirs may create a real `d` while it is briefly absent, which breaks a
// swap step: `repair` removes that stray directory (it is inside the root) and restores `d`.
function repair() {
  if (!existsSync(`${root}/.d-real`)) return;
  rmSync(`${root}/d`, { recursive: true, force: true });
  renameSync(`${root}/.d-real`, `${root}/d`);
}

function swapParent() {
  repair();
  renameSync(`${root}/d`, `${root}/.d-real`);
  symlinkSync(outside, `${root}/d`);
  hold();
  unlinkSync(`${root}/d`);
  renameSync(`${root}/.d-real`, `${root}/d`);
  hold();
}

// An in-root directory alias re-pointed between `d` (inside) and the outside directory.
function swapAlias() {
  symlinkSync('d', `${root}/.alias-tmp`);
  renameSync(`${root}/.alias-tmp`, `${root}/alias`);
  hold();
  symlinkSync(outside, `${root}/.alias-tmp`);
  renameSync(`${root}/.alias-tmp`, `${root}/alias`);
  hold();
}

// The alias exists before "ready": a write must never meet it absent and create a real `alias`.
if (mode === 'alias') {
  mkdirSync(`${root}/d`, { recursive: true });
  symlinkSync('d', `${root}/alias`);
}
if (mode === 'parent') {
  rmSync(`${root}/d`, { recursive: true, force: true });
  mkdirSync(`${root}/d`);
  writeFileSync(`${root}/d/t.txt`, 'INSIDE');
}
process.stdout.write('ready\n');
// Swap in bursts and yield between them so SIGTERM is seen.
function burst() {
  for (let index = 0; index < 200 && !stop; index += 1) {
    try {
      if (mode === 'parent') swapParent();
      else if (mode === 'alias') swapAlias();
      else swapFinal();
      swaps += 1;
    } catch {
      // A host write landed a file at the name mid-swap; keep swapping.
    }
  }
  if (stop) {
    process.stdout.write(`swaps ${swaps}\n`);
    process.exit(0);
  }
  setImmediate(burst);
}
burst();
