import type { ToolDispatchContext } from '../../dispatch-context.js';
import type { AnyToolDef } from '../../tool-def.js';
import type {
  DirectoryListing,
  EgressResponse,
  FileRead,
  FileWrite,
  MediaInfo,
  ProcessResult,
  ToolHost,
} from '../../tool-host.js';

/** One recorded host call: which method, with exactly which arguments. */
export interface HostCall {
  readonly method: string;
  readonly args: readonly unknown[];
}

/** Canned answers; a function answer may throw to simulate a host failure. */
export interface StubAnswers {
  readFile?: () => FileRead;
  writeFile?: (() => FileWrite) | null;
  listDirectory?: () => DirectoryListing;
  spawn?: () => ProcessResult;
  fetch?: () => EgressResponse;
  readClipboard?: () => string;
  notify?: () => { readonly delivered: true };
  mcpCall?: () => unknown;
  mediaStat?: () => MediaInfo | undefined;
  mediaRead?: (range: { start: number; end: number }) => Uint8Array;
}

/** A ToolHost with every arm, recording each call; core unit tests only. */
export function stubHost(answers: StubAnswers = {}): { host: ToolHost; calls: HostCall[] } {
  const calls: HostCall[] = [];
  const record =
    <A extends unknown[], R>(method: string, answer: (...args: A) => R) =>
    async (...args: A): Promise<Awaited<R>> => {
      calls.push({ method, args });
      return await answer(...args);
    };
  const host: ToolHost = {
    fs: {
      readFile: record('fs.readFile', answers.readFile ?? (() => textFile)),
      listDirectory: record('fs.listDirectory', answers.listDirectory ?? (() => ({ entries: [] }))),
      // `null` models a read-only host, which omits the write method.
      ...(answers.writeFile === null
        ? {}
        : {
            writeFile: record(
              'fs.writeFile',
              answers.writeFile ?? (() => ({ path: 'a.txt', bytesWritten: 2 })),
            ),
          }),
    },
    process: { spawn: record('process.spawn', answers.spawn ?? (() => okProcess)) },
    egress: {
      fetch: record(
        'egress.fetch',
        answers.fetch ?? (() => ({ status: 200, headers: {}, body: '' })),
      ),
    },
    os: {
      readClipboard: record('os.readClipboard', answers.readClipboard ?? (() => 'clip')),
      notify: record('os.notify', answers.notify ?? (() => ({ delivered: true as const }))),
    },
    mcp: { call: record('mcp.call', answers.mcpCall ?? (() => ({ content: [] }))) },
    media: {
      stat: record('media.stat', answers.mediaStat ?? (() => undefined)),
      read: record('media.read', (_handle: string, range: { start: number; end: number }) =>
        (answers.mediaRead ?? ((r) => new Uint8Array(r.end - r.start + 1)))(range),
      ),
    },
  };
  return { host, calls };
}

/** A host with no arms at all. */
export const EMPTY_HOST: ToolHost = Object.freeze({});

/** A dispatch context with every optional part absent unless overridden. */
export function testContext(overrides: Partial<ToolDispatchContext> = {}): ToolDispatchContext {
  return {
    nodeId: 'node-1',
    grantedToolIds: new Set<string>(),
    config: {},
    toolPolicy: {},
    fsScope: 'sandboxed',
    gateApproved: false,
    ...overrides,
  };
}

/**
 * Step 3 of the spec's dispatch order for a def used on its own: model args minus every
 * config-only key, then the config parameters merged last (config wins).
 */
export function effectiveArgs(
  tool: AnyToolDef,
  modelArgs: Record<string, unknown>,
  parameters: Record<string, unknown> = {},
): unknown {
  const hidden = new Set(tool.configOnlyParams ?? []);
  const fromModel = Object.fromEntries(
    Object.entries(modelArgs).filter(([key]) => !hidden.has(key)),
  );
  return tool.parseArgs({ ...fromModel, ...parameters });
}

/** The arguments a recorded call was made with. */
export function onlyCall(calls: readonly HostCall[], method: string): readonly unknown[] {
  const matching = calls.filter((call) => call.method === method);
  if (matching.length !== 1) throw new Error(`expected one ${method} call, saw ${matching.length}`);
  return matching[0]?.args ?? [];
}

const textFile: FileRead = {
  content: 'hello',
  mimeType: 'text/plain',
  sizeBytes: 5,
  lastModified: '2026-01-01T00:00:00.000Z',
};

const okProcess: ProcessResult = { exitCode: 0, stdout: 'out', stderr: '', durationMs: 3 };
