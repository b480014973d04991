import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import type { BenchRow } from '../bench-row.js';
import { interleavedRows, sampleInterleaved, type Sample } from '../sample-interleaved.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The published binary (the bundle `npm run build` writes) when built, else the sources via tsx.
const BUNDLE = path.join(REPO_ROOT, 'packages/cli/dist/bundle/toolhost.js');
const SERVE_ARGV = existsSync(BUNDLE)
  ? [BUNDLE]
  : ['--conditions=source', '--import', 'tsx', path.join(REPO_ROOT, 'packages/cli/src/bin.ts')];
/** The reference server: a root devDependency, or wherever MCP_FS_REFERENCE points. */
const REFERENCE =
  process.env['MCP_FS_REFERENCE'] ??
  path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** One side's per-call times (`sampleInterleaved`) and its server's CPU time per call. */
export interface SideTimes extends Sample {
  /** CPU time of the server process per call (Linux /proc; NaN elsewhere): immune to neighbours. */
  readonly serverCpuUs: number;
}

/**
 * `tools/call read_file` over stdio through the SDK Client: a real `toolhost serve` process
 * against `@modelcontextprotocol/server-filesystem` (its `read_text_file`, the same handler as
 * its deprecated `read_file`) on the same file, call by call interleaved so drift hits both.
 */
export async function stdioReadFileRows(): Promise<BenchRow[]> {
  if (!existsSync(REFERENCE)) {
    process.stderr.write(
      'bench mcp: stdio read_file rows NOT RUN: @modelcontextprotocol/server-filesystem is not installed (set MCP_FS_REFERENCE to its dist/index.js)\n',
    );
    return [];
  }
  const base = await mkdtemp(path.join(tmpdir(), 'toolhost-bench-mcp-stdio-'));
  const root = path.join(base, 'app');
  await mkdir(root);
  const rows: BenchRow[] = [];
  try {
    for (const [label, bytes, iterations, target] of [
      ['4 KiB', 4 * 1024, 1500, '≤1.0x'],
      ['1 MiB', 1024 * 1024, 150, '≤0.3x'],
    ] as const) {
      const file = `file-${bytes}.txt`;
      // Lines of text, as source files are: one long line would be a different case.
      await writeFile(path.join(root, file), textOf(bytes));
      const times = await compare(root, path.join(base, 'state'), file, iterations);
      process.stderr.write(
        `bench mcp stdio read_file ${label}: ${describe('toolhost', times.subject)}; ${describe('server-filesystem', times.baseline)}\n`,
      );
      rows.push(
        ...interleavedRows({
          label: `mcp stdio tools/call read_file ${label}`,
          subject: existsSync(BUNDLE) ? 'toolhost serve (bundle)' : 'toolhost serve (tsx sources)',
          baseline: '@modelcontextprotocol/server-filesystem',
          subjectSample: times.subject,
          baselineSample: times.baseline,
          target,
        }),
      );
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  return rows;
}

/** Both servers on `file` under `root`, `iterations` calls each, interleaved call by call. */
export async function compare(
  root: string,
  stateDir: string,
  file: string,
  iterations: number,
  serveNodeArgs: readonly string[] = [],
): Promise<{ subject: SideTimes; baseline: SideTimes }> {
  const toolhost = await connect(process.execPath, [
    ...serveNodeArgs,
    ...SERVE_ARGV,
    'serve',
    '--root',
    root,
    '--state-dir',
    stateDir,
  ]);
  const reference = await connect(process.execPath, [REFERENCE, root]);
  try {
    const subject = () => toolhost.callTool({ name: 'read_file', arguments: { path: file } });
    const baseline = () =>
      reference.callTool({ name: 'read_text_file', arguments: { path: path.join(root, file) } });
    await checkSameText(subject, baseline);
    const warmup = Math.max(50, Math.ceil(iterations / 10));
    const before = { subject: await cpuUs(toolhost.pid), baseline: await cpuUs(reference.pid) };
    const samples = await sampleInterleaved(
      {
        subject: { run: async () => void (await subject()) },
        baseline: { run: async () => void (await baseline()) },
      },
      { iterations, warmup },
    );
    const calls = iterations + warmup;
    return {
      subject: {
        ...samples.subject,
        serverCpuUs: ((await cpuUs(toolhost.pid)) - before.subject) / calls,
      },
      baseline: {
        ...samples.baseline,
        serverCpuUs: ((await cpuUs(reference.pid)) - before.baseline) / calls,
      },
    };
  } finally {
    await toolhost.client.close();
    await reference.client.close();
  }
}

interface Connected {
  readonly client: Client;
  readonly pid: number | null;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

async function connect(command: string, args: string[]): Promise<Connected> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, cwd: REPO_ROOT, stderr: 'ignore' });
  await client.connect(transport);
  return { client, pid: transport.pid, callTool: (params) => client.callTool(params) };
}

// utime + stime of a process in µs (clock ticks of 10 ms: a whole run is long enough for that).
async function cpuUs(pid: number | null): Promise<number> {
  if (pid === null || process.platform !== 'linux') return Number.NaN;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

// Both must really have read the file: a refusal answered fast would be a fake win.
async function checkSameText(
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
): Promise<void> {
  const [ours, theirs] = await Promise.all([subject(), baseline()]);
  const head = (result: unknown) =>
    JSON.stringify((result as { content?: unknown[] }).content?.[0]).slice(0, 200);
  if ((ours as { isError?: boolean }).isError === true || !head(ours).includes('line 000001')) {
    throw new Error(`bench mcp: toolhost did not read the file: ${head(ours)}`);
  }
  if (!head(theirs).includes('line 000001')) {
    throw new Error(`bench mcp: the reference did not read the file: ${head(theirs)}`);
  }
}

function describe(name: string, times: SideTimes): string {
  const us = (value: number) => value.toFixed(0);
  return `${name} min ${us(times.minUs)} / median ${us(times.medianUs)} µs, server CPU ${us(times.serverCpuUs)} µs a call`;
}

function textOf(bytes: number): string {
  let text = '';
  for (let line = 1; text.length < bytes; line += 1) {
    text += `line ${String(line).padStart(6, '0')}: the quick brown fox jumps over the lazy dog\n`;
  }
  return text.slice(0, bytes);
}
