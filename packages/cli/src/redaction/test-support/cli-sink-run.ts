import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { CliIo } from '../../commands/cli-io.js';
import { main } from '../../main.js';
import { plantedFileText, plantedValue, type PlantedSecret } from './planted-secret.js';
import type { SinkTexts } from './every-sink-run.js';

// A successful `call --json` prints the tool's own result, unredacted by design: the operator
// asked for it (`call read_file` shows the file). Everything else it prints is a projection.
function withoutResult(printed: string): string {
  try {
    const report = JSON.parse(printed) as Record<string, unknown>;
    if (report['ok'] !== true) return printed;
    const { result: _result, ...rest } = report;
    return JSON.stringify(rest);
  } catch {
    return printed;
  }
}

/** A writable that keeps what the command printed. */
function captured(): { stream: NodeJS.WriteStream; text(): string } {
  let text = '';
  const stream = {
    isTTY: false,
    write: (chunk: string | Uint8Array) => {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    },
  };
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

/**
 * The command line, in process through `main` with a real workspace on disk: `call --json` of a
 * read (its summary) with `--audit-log`, `call --json` of a failing read and of an unknown tool
 * (the failure report), and `explain --json` of a command and a read.
 */
export async function runCliSinks(planted: PlantedSecret): Promise<SinkTexts> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-cli-sinks-')));
  try {
    await writeFile(path.join(base, 'keys.txt'), plantedFileText(planted));
    const auditFile = path.join(base, 'audit.jsonl');
    const flags = ['--state-dir', path.join(base, '.state'), '--json'];
    const outputs: string[] = [];
    const cli = async (args: readonly string[]): Promise<void> => {
      const stdout = captured();
      const stderr = captured();
      const io: CliIo = {
        stdin: Readable.from([]) as unknown as NodeJS.ReadStream,
        stdout: stdout.stream,
        stderr: stderr.stream,
        env: { HOME: base, PATH: process.env['PATH'] ?? '' },
        cwd: base,
      };
      await main([...args, ...flags], io);
      outputs.push(withoutResult(stdout.text()), stderr.text());
    };
    const args = JSON.stringify({ path: 'keys.txt' });
    await cli(['call', 'read_file', args, '--audit-log', auditFile]);
    await cli([
      'call',
      'read_file',
      JSON.stringify({ path: `gone/${planted.shape.text}` }),
      '--audit-log',
      auditFile,
    ]);
    await cli(['call', planted.shape.text, '{}', '--audit-log', auditFile]);
    const explained: string[] = [];
    const explain = async (tool: string, value: unknown, extra: readonly string[] = []) => {
      const before = outputs.length;
      await cli(['explain', tool, JSON.stringify(value), ...extra]);
      explained.push(...outputs.splice(before));
    };
    await explain('run_command', { command: planted.text, args: [planted.text] }, [
      '--tools',
      'run_command',
    ]);
    await explain('read_file', { path: planted.text });
    await explain('write_file', {
      path: 'out.txt',
      content: JSON.stringify(plantedValue(planted)),
    });
    return {
      'call --json (stdout, stderr)': outputs.join('\n'),
      'explain --json': explained.join('\n'),
      'call --audit-log file': await readFile(auditFile, 'utf8').catch(() => ''),
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
