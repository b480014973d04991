import type { ToolJournalOutcome } from '@toolhost/core/journal';
import type { CliIo } from './cli-io.js';

/** Tells a human on stderr what the journal did with the call; a first run that settled is quiet. */
export function reportJournal(io: CliIo, journal: ToolJournalOutcome): void {
  if (journal.status === 'replayed') {
    io.stderr.write(
      journal.operatorResolved
        ? 'toolhost: replayed an operator resolution from the effect journal; the effect did not run again\n'
        : 'toolhost: replayed from the effect journal; the effect did not run again\n',
    );
    if (journal.outputDropped) {
      io.stderr.write('toolhost: the record kept only the bounded result (over the record cap)\n');
    }
    return;
  }
  if (journal.status === 'unsettled') {
    io.stderr.write(
      'toolhost: the effect ran but its journal record could not be written; a re-run of this call is refused as effect_unresolved\n',
    );
  }
}

/** The operator's way out of an unresolved claim, naming this call's run and call ids. */
export function unresolvedHint(ids: { readonly runId: string; readonly callId: string }): string {
  const resolve = `toolhost journal resolve ${ids.runId} ${ids.callId}`;
  return `the effect may have happened; check, then \`${resolve} --as done\` (it happened: a re-run replays that) or \`--as failed\` (it did not: a re-run runs it), with the same --journal / --state-dir`;
}
