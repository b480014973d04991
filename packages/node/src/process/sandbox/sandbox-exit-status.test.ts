import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_TOOLS,
  createToolRegistry,
  ToolExecutionError,
  type ToolDispatchContext,
} from '@toolhost/core';
import type { ProcessResult } from '@toolhost/core/host';
import { findSandboxWaitInit } from '@toolhost/sandbox-net';
import { createNodeToolHost, type NodeToolHostHandle } from '../../create-node-tool-host.js';

// bwrap reports `exit 137` and a SIGKILL alike as exit code 137; the waiting init's record tells
// them apart. Real bwrap, real shells: each case prints to both streams first, so a report that
// drops output on a signal (or reads a code as one) fails here.
const EXIT_CODES = [0, 1, 2, 126, 127, 128, 129, 137, 143, 159, 160, 255] as const;
const SIGNALS = ['SIGTERM', 'SIGKILL', 'SIGINT', 'SIGSEGV'] as const;

describe.skipIf(process.platform !== 'linux' || findSandboxWaitInit() === undefined)(
  'exit statuses through the sandbox',
  () => {
    let base = '';
    let root = '';
    let handle: NodeToolHostHandle;

    const run = async (
      script: string,
      options: { timeoutMs?: number } = {},
    ): Promise<ProcessResult> => {
      const spawnInHost = handle.host.process?.spawn;
      if (spawnInHost === undefined) throw new Error('no process arm');
      return spawnInHost('/bin/sh', ['-c', script], {}, options);
    };

    beforeAll(async () => {
      base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-exit-')));
      root = path.join(base, 'ws');
      await mkdir(root);
      await writeFile(path.join(root, 'exit-137.sh'), 'echo out-137\necho err-137 >&2\nexit 137\n');
      await writeFile(
        path.join(root, 'die-kill.sh'),
        'echo out-kill\necho err-kill >&2\nkill -KILL $$\n',
      );
      handle = await createNodeToolHost({
        root,
        stateDir: path.join(base, 'state'),
        runId: 'test-run',
        process: {
          sandbox: 'required',
          hostEnv: { PATH: '/usr/bin:/bin', HOME: path.join(base, 'home') },
          timeoutMs: 20_000,
        },
      });
    });

    afterAll(async () => {
      await handle?.close();
      await rm(base, { recursive: true, force: true });
    });

    it.each(EXIT_CODES)('reports exit %i as that exit code, with its output', async (code) => {
      const result = await run(`echo out-${code}; echo err-${code} >&2; exit ${code}`);

      expect(result).toMatchObject({
        exitCode: code,
        stdout: `out-${code}\n`,
        stderr: `err-${code}\n`,
      });
      expect(result.signal).toBeUndefined();
    });

    it.each(SIGNALS)('reports a death by %s as that signal, with its output', async (signal) => {
      const name = signal.slice(3);

      const result = await run(`echo out-${name}; echo err-${name} >&2; kill -${name} $$`);

      expect(result).toMatchObject({
        exitCode: null,
        signal,
        stdout: `out-${name}\n`,
        stderr: `err-${name}\n`,
      });
    });

    it('forwards a signal sent to the init to the command', async () => {
      // $PPID is the waiting init: the command's trap runs only if the init passed TERM on.
      const result = await run(
        'trap "echo trapped; exit 7" TERM; kill -TERM $PPID; sleep 2; exit 1',
      );

      expect(result).toMatchObject({ exitCode: 7, stdout: 'trapped\n' });
    });

    it('gives the command no status descriptor to write a record of its own on', async () => {
      const result = await run(
        'for fd in 3 4 5 6 7 8 9; do { echo "exit 0" >&$fd; } 2>/dev/null && echo open-$fd; done; exit 3',
      );

      expect(result).toMatchObject({ exitCode: 3, stdout: '' });
    });

    it("reads a command that killed its init as bwrap's exit code, not a made-up signal", async () => {
      // No record: what bwrap saw of its child (the init, SIGKILLed: 137) is kept as a plain
      // code with the output, neither invented as a signal nor dropped as a failed call.
      const result = await run('echo out; echo err >&2; kill -KILL $PPID; sleep 5');

      expect(result).toMatchObject({ exitCode: 137, stdout: 'out\n', stderr: 'err\n' });
      expect(result.signal).toBeUndefined();
    });

    it('still kills the tree on a timeout', async () => {
      const started = performance.now();

      const result = await run('echo before; sleep 30 & sleep 30', { timeoutMs: 500 });

      expect(result).toMatchObject({ timedOut: true, stdout: 'before\n' });
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    it('reports exit 137 exactly in the full tier too (its root is read-only)', async () => {
      const full = await createNodeToolHost({
        root,
        stateDir: path.join(base, 'state-full'),
        runId: 'test-run',
        fsScope: 'full',
        process: {
          sandbox: 'required',
          hostEnv: { PATH: '/usr/bin:/bin', HOME: path.join(base, 'home') },
          timeoutMs: 20_000,
        },
      });
      try {
        const result = await full.host.process?.spawn(
          '/bin/sh',
          ['-c', 'echo out; exit 137'],
          {},
          {},
        );

        expect(result).toMatchObject({ exitCode: 137, stdout: 'out\n' });
        expect(result?.signal).toBeUndefined();
      } finally {
        await full.close();
      }
    });

    it('reports exit 137 and SIGKILL exactly under a network allowance (both inits chained)', async () => {
      const networked = await createNodeToolHost({
        root,
        stateDir: path.join(base, 'state-net'),
        runId: 'test-run',
        process: {
          sandbox: 'required',
          network: { allowedDomains: ['egress.test'] },
          hostEnv: { PATH: '/usr/bin:/bin', HOME: path.join(base, 'home') },
          timeoutMs: 20_000,
        },
      });
      try {
        const spawnInHost = networked.host.process?.spawn;
        if (spawnInHost === undefined) throw new Error('no process arm');
        // The proxy variable is set only with the network init in the chain; a failed handoff
        // would read as the network init's own exit 127, not the script's 137.
        const script = 'echo "$HTTPS_PROXY"; echo err >&2; ';

        const exited = await spawnInHost('/bin/sh', ['-c', `${script}exit 137`], {}, {});
        const killed = await spawnInHost('/bin/sh', ['-c', `${script}kill -KILL $$`], {}, {});

        expect(exited).toMatchObject({
          exitCode: 137,
          stdout: expect.stringContaining('127.0.0.1:'),
          stderr: 'err\n',
        });
        expect(exited.signal).toBeUndefined();
        expect(killed).toMatchObject({ exitCode: null, signal: 'SIGKILL', stderr: 'err\n' });
      } finally {
        await networked.close();
      }
    });

    describe('through the tools', () => {
      const context = (overrides: Partial<ToolDispatchContext> = {}): ToolDispatchContext => ({
        nodeId: 'test',
        grantedToolIds: new Set(['git_status', 'run_command']),
        config: { parameters: {} },
        toolPolicy: { allowedCommands: ['sh exit-137.sh', 'sh die-kill.sh'] },
        fsScope: 'sandboxed',
        gateApproved: false,
        ...overrides,
      });

      it('run_command returns exit 137 as data, not as SIGKILL', async () => {
        const tools = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });

        const outcome = await tools.dispatch(
          { id: 'r', name: 'run_command', args: { command: 'sh', args: ['exit-137.sh'] } },
          context(),
        );

        expect(outcome.output).toMatchObject({
          exitCode: 137,
          stdout: 'out-137\n',
          stderr: 'err-137\n',
        });
      });

      it('run_command fails a SIGKILL as exit_signal and keeps its output on the detail', async () => {
        const tools = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });

        const attempt = tools.dispatch(
          { id: 'r', name: 'run_command', args: { command: 'sh', args: ['die-kill.sh'] } },
          context(),
        );

        const error: unknown = await attempt.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolExecutionError);
        expect(error).toMatchObject({ reason: 'exit_signal' });
        expect((error as ToolExecutionError).detail).toBe(
          'killed by SIGKILL\nstdout:\nout-kill\n\nstderr:\nerr-kill\n',
        );
      });

      it('git_status diff outside a repository reports exit 129 with its stderr', async () => {
        const tools = createToolRegistry({ tools: BUILTIN_TOOLS, host: handle.host });

        const outcome = await tools.dispatch(
          { id: 'g', name: 'git_status', args: { command: 'diff' } },
          context(),
        );

        expect(outcome.output).toMatchObject({
          exitCode: 129,
          stderr: expect.stringContaining('usage: git diff'),
        });
      });
    });
  },
);
