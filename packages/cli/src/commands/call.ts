import { ToolCancelledError, UnknownToolError, unwrapUntrusted } from '@toolhost/core';
import type { DurableMediaPart } from '@toolhost/core/host';
import type { Command } from 'commander';
import { debugError } from '../debug-log.js';
import { EXIT_CODES } from '../exit-codes.js';
import { openSession, type Session } from '../session/open-session.js';
import { printJson, type CliIo } from './cli-io.js';
import { describeFailure, type FailureReport } from './describe-failure.js';
import { detectInteraction } from './interaction.js';
import {
  addPolicyOptions,
  settingsFromOptions,
  type PolicyOptionValues,
} from './policy-options.js';
import { printFailure } from './print-failure.js';
import { readCallArgs } from './read-call-args.js';
import { readWindowNote } from './read-window-note.js';
import {
  resolveCallJournal,
  type CallJournal,
  type CallJournalFlags,
} from './call-journal-options.js';
import { reportJournal, unresolvedHint } from './report-journal.js';
import { safeToolName } from './safe-tool-name.js';
import { suggestToolId } from './suggest-tool-id.js';
import { startTracing } from '../session/start-tracing.js';
import { sanitizeForTerminal } from '../terminal/sanitize-for-terminal.js';
import { trapInterrupts } from './trap-interrupts.js';

interface CallOptions extends PolicyOptionValues, CallJournalFlags {
  readonly gateApproved?: boolean;
}

/** `toolhost call <tool> [json-args]`: one dispatch through the full pipeline. */
export function registerCall(program: Command, io: CliIo, setExit: (code: number) => void): void {
  addPolicyOptions(
    program
      .command('call')
      .description('run one tool call through the full pipeline')
      .argument('<tool>', 'tool id')
      .argument('[json-args]', 'arguments: JSON text, @file.json, or - for stdin'),
  )
    .option('--audit-log <file>', 'append one JSON line per event to this file')
    .option('--gate-approved', 'you are the human gate for tools that require one (git_commit)')
    .option('--run-id <id>', 'journal this call under this run id (a re-run replays it)')
    .option('--call-id <id>', "the call's key in the run (required with --run-id)")
    .option('--journal <file>', 'effect journal file (default: <state-dir>/journal.sqlite)')
    .action(async (toolId: string, rawArgs: string | undefined, options: CallOptions) => {
      setExit(await runCall(toolId, rawArgs, options, io));
    });
}

async function runCall(
  toolId: string,
  rawArgs: string | undefined,
  options: CallOptions,
  io: CliIo,
): Promise<number> {
  const json = options.json === true;
  const settings = settingsFromOptions(options, io);
  const journal = resolveCallJournal(options, settings, io.cwd);
  const args = await readCallArgs(rawArgs, io.stdin);
  const interaction = detectInteraction(io, { json, stdinUsed: rawArgs === '-' });
  const tracing = await startTracing(io);
  const interrupts = trapInterrupts(io);
  try {
    const session = await openSession({
      settings,
      ...(tracing === undefined ? {} : { traceRegistry: tracing.traceRegistry }),
      // One call: the host builds only the arms this tool uses.
      dispatchable: [toolId],
      ...(interaction.prompter === undefined
        ? { nonInteractiveReason: interaction.reason }
        : { prompter: interaction.prompter }),
      ...(json || io.stderr.isTTY !== true ? {} : { progress: io.stderr }),
      gateApproved: options.gateApproved === true,
      // A journaled call's run id is the session's: its spills outlive a replay's lookup.
      ...(journal === undefined
        ? {}
        : {
            runId: journal.runId,
            journal: { file: journal.file, createDirectory: journal.createDirectory },
          }),
    });
    try {
      return await dispatchOnce({
        session,
        toolId,
        args,
        json,
        io,
        signal: interrupts.signal,
        journal,
      });
    } finally {
      await session.close();
    }
  } finally {
    interrupts.dispose();
    // Before the process exits: a queued span would otherwise be lost.
    await tracing?.shutdown();
  }
}

interface DispatchInput {
  readonly session: Session;
  readonly toolId: string;
  readonly args: unknown;
  readonly json: boolean;
  readonly io: CliIo;
  readonly signal: AbortSignal;
  readonly journal: CallJournal | undefined;
}

async function dispatchOnce(input: DispatchInput): Promise<number> {
  const { session, toolId, args, json, io, signal, journal } = input;
  const context = session.context(toolId, signal);
  // Journaled, the call's id is its key in the run: the same id again is the same call.
  const ids = journal === undefined ? {} : { callId: journal.callId };
  try {
    const outcome = await session.registry.dispatch(
      { id: journal?.callId ?? `call-${session.runId}`, name: toolId, args },
      context,
    );
    const { result } = unwrapUntrusted(outcome.toolResult);
    const media =
      outcome.mediaAttachments === undefined ? [] : unwrapUntrusted(outcome.mediaAttachments);
    if (json) {
      printJson(io, {
        ok: true,
        exitCode: EXIT_CODES.success,
        runId: session.runId,
        ...ids,
        tool: toolId,
        ...(outcome.journal === undefined ? {} : { journal: outcome.journal }),
        result,
        truncated: outcome.truncated,
        spill: outcome.spill ?? null,
        media: media.map(summariseMedia),
        // Copied by name: the projections are computed on read.
        events: { call: outcome.events.call, result: outcome.events.result },
      });
    } else {
      printResult(io, result, outcome.truncated, outcome.spill?.ref, media);
      const windowNote = readWindowNote(toolId, args, result);
      if (windowNote !== undefined) io.stderr.write(`${windowNote}\n`);
      if (outcome.journal !== undefined) reportJournal(io, outcome.journal);
    }
    return EXIT_CODES.success;
  } catch (error) {
    debugError(`toolhost call ${safeToolName(toolId)} failed`, error);
    // Cancel wins: whatever the pipeline threw after an interrupt, the user asked to stop.
    const described = describeFailure(signal.aborted ? new ToolCancelledError(toolId) : error);
    // The operator's next step, with this call's own ids (flags the operator typed, not args).
    const report =
      journal !== undefined && described.reason === 'effect_unresolved'
        ? { ...described, hint: unresolvedHint(journal) }
        : withSuggestion(described, error, toolId, session);
    printFailure(io, json, report, { runId: session.runId, ...ids, tool: safeToolName(toolId) });
    return report.exitCode;
  }
}

// A typo gets the nearest registered id as a hint for the person; the error itself (what a
// model sees through dispatch) keeps its plain list, and nothing runs the suggestion.
function withSuggestion(
  report: FailureReport,
  error: unknown,
  toolId: string,
  session: Session,
): FailureReport {
  if (report.code !== 'unknown_tool' || !(error instanceof UnknownToolError)) return report;
  const known = [...error.availableIds, ...session.tools.map((tool) => tool.id)];
  const suggestion = suggestToolId(toolId, known);
  if (suggestion === undefined) return report;
  return {
    ...report,
    hint: `did you mean ${suggestion}? (${report.hint ?? 'see `toolhost tools`'})`,
  };
}

function summariseMedia(part: DurableMediaPart) {
  return { handle: part.handle, mimeType: part.mimeType, sizeBytes: part.sizeBytes };
}

function printResult(
  io: CliIo,
  result: unknown,
  truncated: boolean,
  spillRef: string | undefined,
  media: readonly DurableMediaPart[],
): void {
  writeLine(io.stdout, renderForHumans(io, result));
  for (const part of media) {
    io.stderr.write(`toolhost: media ${part.handle} (${part.mimeType}, ${part.sizeBytes} bytes)\n`);
  }
  if (truncated) {
    const where = spillRef === undefined ? '' : `; full output at ${spillRef}`;
    io.stderr.write(`toolhost: result truncated for the model${where}\n`);
  }
}

// The common shapes read naturally: a file's text, a command's streams; anything else as JSON.
function renderForHumans(io: CliIo, result: unknown): string {
  if (typeof result === 'string') return result;
  if (typeof result === 'object' && result !== null) {
    const record = result as Record<string, unknown>;
    if (typeof record['content'] === 'string' && typeof record['mimeType'] === 'string') {
      return record['content'];
    }
    if (typeof record['stdout'] === 'string' && typeof record['stderr'] === 'string') {
      if (record['stderr'] !== '') writeLine(io.stderr, record['stderr']);
      if (record['exitCode'] !== 0) {
        io.stderr.write(
          `toolhost: the command exited with ${JSON.stringify(record['exitCode'])}\n`,
        );
      }
      return record['stdout'];
    }
  }
  return JSON.stringify(result, null, 2);
}

// Tool output is untrusted: on a terminal its control characters are shown, never obeyed.
function writeLine(stream: NodeJS.WriteStream, text: string): void {
  if (text === '') return;
  const safe = stream.isTTY === true ? sanitizeForTerminal(text) : text;
  stream.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}
