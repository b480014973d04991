import { appendFile, readFile } from 'node:fs/promises';

import { z } from 'zod';
import { createToolRegistry, defineTool, type ToolDispatchContext } from '@toolhost/core';

import { createSqliteEffectJournal } from '../create-sqlite-effect-journal.js';

// A child process for the crash test: runs `append_line` calls (`<call id>=<line>`) on the real
// registry with the SQLite journal, one JSON line per call on stdout. With HANG_ON=<line> that
// call's effect appends its line, says so, and never returns: the parent SIGKILLs it there.

const [journalFile = '', logFile = '', ...calls] = process.argv.slice(2);
const hangOn = process.env['HANG_ON'];

const appendLine = defineTool({
  id: 'append_line',
  description: 'appends one line to the effect log',
  args: z.strictObject({ line: z.string() }),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false, journal: 'effect' },
  dispatch: async ({ line }) => {
    await appendFile(logFile, `${line}\n`);
    if (line === hangOn) {
      process.stdout.write(`${JSON.stringify({ effectStarted: line })}\n`);
      await new Promise(() => setInterval(() => undefined, 60_000));
    }
    // Depends on the log so far: a re-run could never reproduce a first run's result.
    const lineCount = (await readFile(logFile, 'utf8')).split('\n').length - 1;
    return { appended: line, lineCount, at: process.hrtime.bigint().toString() };
  },
});

const store = await createSqliteEffectJournal({ file: journalFile });
const registry = createToolRegistry({ tools: [appendLine], host: {} });
const ctx: ToolDispatchContext = {
  nodeId: 'crash-test',
  grantedToolIds: new Set(['append_line']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
  journal: { store, runId: 'run-crash' },
};
for (const spec of calls) {
  const [id = '', line = ''] = spec.split('=');
  try {
    const outcome = await registry.dispatch({ id, name: 'append_line', args: { line } }, ctx);
    const { toolResult, output, journal } = outcome;
    process.stdout.write(
      `${JSON.stringify({ call: id, ok: true, toolResult, output, journal })}\n`,
    );
  } catch (error) {
    const { name, reason, retryable, recoverable } = error as Record<string, unknown>;
    process.stdout.write(
      `${JSON.stringify({ call: id, ok: false, name, reason, retryable, recoverable })}\n`,
    );
  }
}
await store.close();
