import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readSandboxExit } from '../process/process-exit.js';
import type { PreparedSandbox } from '../process/sandbox/create-sandbox.js';

/** How a stdio server's process ended: an exit code or a signal, never both. */
export interface McpServerExit {
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
}

/** What `StdioProcessTransport` launches. */
export interface StdioProcessTransportOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** The COMPLETE environment of the child (already minimal). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Between closing stdin, SIGTERM and SIGKILL. */
  readonly killGraceMs: number;
  /** Wraps the server in the host's sandbox (bwrap argv, env, descriptors); absent: on the host. */
  readonly prepareSandbox?: () => Promise<PreparedSandbox>;
}

/**
 * The SDK's stdio framing over a child we own. Unlike the SDK's `StdioClientTransport` it never
 * merges ambient variables into the env, and it runs the server in its own process group so
 * `close()` also reaps what the server spawned (an `npx` wrapper's node, a shell's children).
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private ended: McpServerExit | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly buffer = new ReadBuffer();

  constructor(private readonly options: StdioProcessTransportOptions) {}

  /** How the server's process ended, once it closed. */
  get exit(): McpServerExit | undefined {
    return this.ended;
  }

  /** The server's pid while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child !== undefined) throw new Error('toolhost: mcp stdio transport already started');
    const { command, args, env, cwd } = this.options;
    const sandbox = await this.options.prepareSandbox?.();
    let child: ChildProcess;
    try {
      child =
        sandbox === undefined
          ? spawn(command, [...args], {
              env: { ...env },
              ...(cwd === undefined ? {} : { cwd }),
              stdio: ['pipe', 'pipe', 'ignore'],
              shell: false,
              detached: true,
              windowsHide: true,
            })
          : spawn(sandbox.file, [...sandbox.args], {
              env: { ...sandbox.env },
              cwd: '/',
              stdio: ['pipe', 'pipe', 'ignore', ...sandbox.extraStdio],
              shell: false,
              detached: true,
              windowsHide: true,
            });
    } catch (error) {
      sandbox?.release();
      throw error;
    }
    sandbox?.started(child);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('close', (exitCode, exitSignal) => {
      // Before `onclose`: the call that finds the server gone reads how it went. Sandboxed, the
      // init's record tells a server's own `exit 137` from a SIGKILL, which bwrap's code cannot.
      this.ended =
        sandbox === undefined
          ? { exitCode, exitSignal }
          : readSandboxExit(sandbox.exitReport(), exitCode, exitSignal);
      sandbox?.release();
      // A server that exited on its own leaves orphans in its group: they go with it.
      signalGroup(child, 'SIGKILL');
      this.child = undefined;
      this.onclose?.();
    });
    child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    child.on('error', (error) => this.onerror?.(error));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || !stdin.writable) throw new Error('Not connected');
    // Resolve once the pipe took the bytes (or drained), not when they were flushed: waiting
    // for the write callback costs a round of the event loop on every message.
    if (!stdin.write(serializeMessage(message))) await once(stdin, 'drain');
  }

  /** Closes stdin, then SIGTERM, then SIGKILL to the whole group; settles once the child closed. */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    const { killGraceMs } = this.options;
    child.stdin?.end();
    if (!(await settlesWithin(this.exited, killGraceMs))) {
      signalGroup(child, 'SIGTERM');
      if (!(await settlesWithin(this.exited, killGraceMs))) {
        signalGroup(child, 'SIGKILL');
        await this.exited;
      }
    }
    // Whatever the server left behind in its group goes with it: no orphans.
    signalGroup(child, 'SIGKILL');
    this.buffer.clear();
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // A server flooding one line past the SDK's 10 MiB frame cap is cut off, not buffered.
      this.onerror?.(error instanceof Error ? error : new Error('mcp frame too large'));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error('invalid MCP message'));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid addresses the process group `detached: true` created.
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return settled;
}
