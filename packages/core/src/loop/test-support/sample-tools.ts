// Small plugin tools that exercise each rung of the failure ladder on a stub host.
import { z } from 'zod';
import { defineTool } from '../../define-tool.js';
import { ToolExecutionError, ToolPolicyError } from '../../errors.js';
import type { DurableMediaPart } from '../../tool-host.js';
import { withMedia } from '../../with-media.js';

/** Echoes its text; `prefix` is config-only. */
export const echoTool = defineTool({
  id: 'echo',
  description: 'Echo text back',
  args: z.strictObject({ text: z.string(), prefix: z.string().optional() }),
  configOnlyParams: ['prefix'],
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async ({ text, prefix }) => `${prefix ?? ''}${text}`,
});

/** A structured result whose bulk is multi-line text, as `run_command` returns. */
export const linesTool = defineTool({
  id: 'lines',
  description: 'Print numbered lines',
  args: z.strictObject({ count: z.number().int().min(1).max(20) }),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async ({ count }) => ({
    exitCode: 0,
    stdout: Array.from({ length: count }, (_unused, index) => `line ${index}\n`).join(''),
  }),
});

/** A governed write: `fs_write` under approval. */
export const saveTool = defineTool({
  id: 'save',
  description: 'Save a note',
  args: z.strictObject({ note: z.string() }),
  policy: { fsScoped: true, fsWrite: true, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async ({ note }) => ({ saved: note.length }),
});

/**
 * Fails the way `reason` says: a correctable MCP-style error, a recoverable scope denial, a
 * fatal side-effect failure, or a raw crash (which the registry wraps).
 */
export const failTool = defineTool({
  id: 'fail',
  description: 'Fail on purpose',
  args: z.strictObject({ reason: z.enum(['correctable', 'recoverable', 'fatal', 'crash']) }),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async ({ reason }): Promise<string> => {
    if (reason === 'correctable') {
      throw new ToolExecutionError('fail', 'tool_error', {
        correctable: true,
        detail: 'column "nme" does not exist',
      });
    }
    if (reason === 'recoverable') throw new ToolPolicyError('fail', 'scope_escape');
    if (reason === 'fatal') throw new ToolExecutionError('fail', 'exit_signal');
    throw new Error('disk on fire at /secret/path');
  },
});

/** Returns an image handle beside its result, as `read_media` does. */
export const imageTool = defineTool({
  id: 'image',
  description: 'Return an image',
  args: z.strictObject({ name: z.string() }),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: async ({ name }) => withMedia({ name }, [samplePng(name)]),
});

/** Waits until aborted. */
export const slowTool = defineTool({
  id: 'slow',
  description: 'Wait until cancelled',
  args: z.strictObject({}),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: (_args, _host, ctx) =>
    new Promise<string>((_resolve, reject) => {
      if (ctx.signal?.aborted === true) reject(new Error('aborted'));
      ctx.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    }),
});

/** A handle-only PNG part whose hash is derived from `name`. */
export function samplePng(name: string): DurableMediaPart {
  const hex = [...name].map((char) => char.charCodeAt(0).toString(16)).join('');
  return {
    type: 'media',
    handle: `media://sha256-${hex.padEnd(64, '0').slice(0, 64)}`,
    mimeType: 'image/png',
    sizeBytes: 4,
    data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
  };
}

/**
 * Runs its host work under the runner's `retainWork`, as the egress and process arms do; each
 * entry of the work counts on `retainedEntries`, and `crash` makes the work itself fail.
 */
export const retainedEntries = { count: 0 };

/** See `retainedEntries`. */
export const retainedTool = defineTool({
  id: 'retained',
  description: 'Do host work the runner retains',
  args: z.strictObject({ crash: z.boolean().optional() }),
  policy: { fsScoped: false, spawnsProcess: false, requiresGateApproval: false },
  dispatch: ({ crash }, _host, ctx) => {
    const work = async (): Promise<string> => {
      retainedEntries.count += 1;
      if (crash === true) throw new Error('socket hang up at 10.0.0.7');
      return 'done';
    };
    const retainWork = ctx.hostCallOptions?.retainWork;
    return retainWork === undefined ? work() : retainWork(work);
  },
});
