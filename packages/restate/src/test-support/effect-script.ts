import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * `effect.sh <label> <seconds>`: appends `<label>` to effects.log, sleeps, then appends
 * `<label>-end`. The log counts how many times a side effect really ran, and how far.
 */
export async function writeEffectScript(workspace: string): Promise<void> {
  await writeFile(
    path.join(workspace, 'effect.sh'),
    'echo "$1" >> effects.log\nsleep "$2"\necho "$1-end" >> effects.log\n',
  );
}

/** A `run_command` call of the effect script, and the exact allowlist entry it needs. */
export function effectCall(id: string, label: string, seconds: number) {
  const args = ['effect.sh', label, String(seconds)];
  return {
    call: { id, name: 'run_command', args: { command: 'sh', args } },
    allowed: ['sh', ...args].join(' '),
  };
}

/** How many times each label appears in the log. */
export function countLines(log: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of log.split('\n').filter((entry) => entry !== '')) {
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return counts;
}
