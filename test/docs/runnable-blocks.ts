import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FencedBlock } from './parse-markdown.js';

/** A fenced block marked `runnable`, with where it sits for a failure message. */
export interface RunnableBlock {
  readonly file: string;
  readonly line: number;
  readonly language: 'module' | 'shell';
  readonly body: string;
}

/** The outcome of running one block: a failure carries the block's stderr. */
export interface BlockRun {
  readonly ok: boolean;
  readonly detail: string;
}

const MODULE_LANGUAGES = new Set(['ts', 'typescript', 'mts', 'js', 'javascript', 'mjs']);
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);
const TIMEOUT_MS = 60_000;

/** Picks the blocks whose info string has the word `runnable`; throws on a language it cannot run. */
export function runnableBlocks(file: string, blocks: readonly FencedBlock[]): RunnableBlock[] {
  return blocks.flatMap(({ info, body, line }): RunnableBlock[] => {
    const [language = '', ...words] = info.split(/\s+/);
    if (!words.includes('runnable')) return [];
    if (MODULE_LANGUAGES.has(language)) return [{ file, line, language: 'module', body }];
    if (SHELL_LANGUAGES.has(language)) return [{ file, line, language: 'shell', body }];
    throw new Error(`${file}:${line}: cannot run a \`${language} runnable\` block`);
  });
}

/**
 * Runs a block in a fresh empty directory (also its HOME). A module is saved inside the repository
 * so `@toolhost/*` resolve through the workspace's node_modules to the built packages.
 */
export async function runBlock(
  repo: string,
  block: RunnableBlock,
  timeoutMs = TIMEOUT_MS,
): Promise<BlockRun> {
  const cwd = await mkdtemp(join(tmpdir(), 'toolhost-docs-'));
  const runs = join(repo, 'test', 'docs', '.runs');
  const slug = block.file.replace(/[^a-z0-9]+/gi, '-');
  const script = join(runs, `${slug}-${block.line}-${process.pid}.mts`);
  try {
    const env = {
      ...process.env,
      HOME: cwd,
      PATH: [join(repo, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
    };
    if (block.language === 'shell')
      return await run('bash', ['-euo', 'pipefail', '-c', block.body], cwd, env, timeoutMs);
    await mkdir(runs, { recursive: true });
    await writeFile(script, block.body);
    // An absolute loader URL: a bare `--import tsx` would resolve from the temp cwd and fail.
    const tsx = pathToFileURL(join(repo, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href;
    return await run(process.execPath, ['--import', tsx, script], cwd, env, timeoutMs);
  } finally {
    await rm(cwd, { recursive: true, force: true });
    await rm(script, { force: true });
  }
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<BlockRun> {
  return new Promise((resolveRun) => {
    // Its own process group, so a timeout stops what the block started too.
    const child = spawn(command, args, {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolveRun({ ok: false, detail: error.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const how = timedOut ? `timed out after ${timeoutMs} ms` : `exited with ${code ?? signal}`;
      resolveRun({ ok: code === 0 && !timedOut, detail: `${how}\n${output}` });
    });
  });
}
