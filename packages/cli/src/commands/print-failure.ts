import { sanitizeForTerminal } from '../terminal/sanitize-for-terminal.js';
import { printJson, type CliIo } from './cli-io.js';
import type { FailureReport } from './describe-failure.js';

/** Prints a failure: one JSON object on stdout with `--json`, else `toolhost: …` lines on stderr. */
export function printFailure(
  io: CliIo,
  json: boolean,
  report: FailureReport,
  extra: Readonly<Record<string, unknown>> = {},
): void {
  if (json) {
    const { exitCode, ...error } = report;
    printJson(io, { ok: false, exitCode, ...extra, error });
    return;
  }
  const message = report.message.replace(/^toolhost: /, '');
  const lines = [`toolhost: ${message}`];
  if (report.userReason !== undefined) lines.push(`  ${report.userReason}`);
  if (report.fields !== undefined && report.fields.length > 0) {
    lines.push(`  fields: ${report.fields.join(', ')}`);
  }
  if (report.detail !== undefined) lines.push(`  detail: ${report.detail}`);
  if (report.hint !== undefined) lines.push(`  hint: ${report.hint}`);
  const text = `${lines.join('\n')}\n`;
  io.stderr.write(io.stderr.isTTY === true ? sanitizeForTerminal(text) : text);
}
