import { createInterface } from 'node:readline';

import { createSqliteEffectJournal } from '../create-sqlite-effect-journal.js';

// A child process for the race test: opens the journal (maybe creating it, racing its twin) and
// says `ready`; then for every `<round>` line on stdin looks that round's call up and prepares
// it whatever it saw (the engine's check-then-act, and its twin is told the same round at the
// same moment). Answers each round with one JSON line.

const [journalFile = ''] = process.argv.slice(2);

const store = await createSqliteEffectJournal({ file: journalFile });
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const round = Number(line);
  const key = { runId: 'race', callKey: `call-${round}`, toolId: 'write_file', argsDigest: 'd' };
  const sawAbsent = (await store.lookup(key)).kind === 'absent';
  try {
    const { claimId } = await store.prepare(key);
    process.stdout.write(`${JSON.stringify({ round, sawAbsent, won: claimId })}\n`);
  } catch (error) {
    const lost = String((error as { code?: unknown }).code);
    process.stdout.write(`${JSON.stringify({ round, sawAbsent, lost })}\n`);
  }
}
await store.close();
