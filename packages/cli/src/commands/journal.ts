import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { SqliteEffectJournal, UnresolvedClaim } from '@toolhost/node/journal';
import { CliUsageError } from '../cli-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import { openJournal, resolveJournalFile, toJournalCliError } from '../session/open-journal.js';
import { sanitizeForTerminal } from '../terminal/sanitize-for-terminal.js';
import { printJson, type CliIo } from './cli-io.js';
import { parseAge } from './parse-age.js';
import { stateDirFromOptions } from './policy-options.js';

interface JournalOptions {
  readonly journal?: string;
  readonly stateDir?: string;
  readonly json?: boolean;
}

/**
 * `toolhost journal list|resolve|gc`: the operator's view of the effect journal. An unresolved
 * claim is a call whose effect may have happened; only a human who checked can say which.
 */
export function registerJournal(
  program: Command,
  io: CliIo,
  setExit: (code: number) => void,
): void {
  const journal = program
    .command('journal')
    .description('list, resolve and sweep the effect journal of journaled calls');
  withJournalOptions(journal.command('list'))
    .description('list unresolved claims: prepared calls that never settled')
    .option('--run <id>', 'only this run')
    .action(async (options: JournalOptions & { readonly run?: string }) => {
      const claims = await withJournal(options, io, [], (store) =>
        store.listUnresolved(options.run === undefined ? {} : { runId: options.run }),
      );
      printClaims(io, options.json === true, claims);
      setExit(EXIT_CODES.success);
    });
  withJournalOptions(journal.command('resolve'))
    .description("settle an unresolved claim with the operator's verdict")
    .argument('<run>', 'run id')
    .argument('<call>', 'call id')
    .addOption(
      new Option(
        '--as <verdict>',
        'done: it happened (replays answer so); failed: it did not (it may run again)',
      )
        .choices(['done', 'failed'])
        .makeOptionMandatory(),
    )
    .action(
      async (
        runId: string,
        callId: string,
        options: JournalOptions & { readonly as: 'done' | 'failed' },
      ) => {
        const outcome = await withJournal(options, io, 'not_found' as const, (store) =>
          store.resolve(runId, callId, options.as),
        );
        if (outcome === 'not_found') {
          throw new CliUsageError('journal resolve: no unresolved claim with this run and call id');
        }
        if (options.json === true) {
          printJson(io, { ok: true, runId, callId, as: options.as, outcome });
        } else {
          io.stdout.write(
            options.as === 'done'
              ? 'resolved as done: a re-run of this call replays the resolution\n'
              : 'resolved as failed: a re-run of this call runs it\n',
          );
        }
        setExit(EXIT_CODES.success);
      },
    );
  withJournalOptions(journal.command('gc'))
    .description('remove settled records older than an age; unresolved claims are kept')
    .requiredOption('--older-than <age>', 'minutes, hours or days: 90m, 12h, 30d')
    .action(async (options: JournalOptions & { readonly olderThan: string }) => {
      const olderThanMs = parseAge(options.olderThan);
      if (olderThanMs === undefined) {
        throw new CliUsageError('--older-than takes a whole number and m, h or d: 90m, 12h, 30d');
      }
      const { removed } = await withJournal(options, io, { removed: 0 }, (store) =>
        store.gc({ olderThanMs }),
      );
      if (options.json === true) printJson(io, { ok: true, removed });
      else io.stdout.write(`removed ${removed} settled record${removed === 1 ? '' : 's'}\n`);
      setExit(EXIT_CODES.success);
    });
}

function withJournalOptions(command: Command): Command {
  return command
    .option('--journal <file>', 'effect journal file (default: <state-dir>/journal.sqlite)')
    .option('--state-dir <dir>', 'state directory holding the default journal')
    .option('--json', 'machine-readable output on stdout');
}

// An operator command never creates a journal: a file that is not there holds no claims.
async function withJournal<T>(
  options: JournalOptions,
  io: CliIo,
  absent: T,
  act: (store: SqliteEffectJournal) => Promise<T>,
): Promise<T> {
  const { file } = resolveJournalFile(options.journal, stateDirFromOptions(options, io), io.cwd);
  if (!existsSync(file)) return absent;
  const store = await openJournal(file, { createDirectory: false });
  try {
    return await act(store);
  } catch (error) {
    throw toJournalCliError(error);
  } finally {
    await store.close();
  }
}

function printClaims(io: CliIo, json: boolean, claims: readonly UnresolvedClaim[]): void {
  if (json) {
    printJson(io, { ok: true, unresolved: claims });
    return;
  }
  if (claims.length === 0) {
    io.stdout.write('no unresolved claims\n');
    return;
  }
  const lines = claims.map(
    (claim) => `${claim.runId}  ${claim.callKey}  ${claim.toolId}  prepared ${claim.preparedAt}`,
  );
  const text = `${lines.join('\n')}\n`;
  // Ids come from whoever ran the calls: on a terminal they are shown, never obeyed.
  io.stdout.write(io.stdout.isTTY === true ? sanitizeForTerminal(text) : text);
}
