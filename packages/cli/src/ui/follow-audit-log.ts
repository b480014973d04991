import { open, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { ToolActionPreview } from '@toolhost/core';
import { redactKey, redactLeaf, redactText } from '@toolhost/core/redact';
import type { ApprovalDecider } from '../approval/approval-decided-by.js';
import { safeToolName } from '../commands/safe-tool-name.js';
import type { UiEventHub } from './ui-event-hub.js';
import type { UiEventInput } from './ui-event.js';

/** How often the file is checked for appended lines. */
export const AUDIT_POLL_MS = 500;
/** A line longer than this is skipped: no audit line the CLI writes comes near it. */
const MAX_LINE_BYTES = 1024 * 1024;
const MAX_TEXT = 1000;
const MAX_DEPTH = 16;
const DECIDERS = [
  'page',
  'elicitation',
  'timeout',
  'cancelled',
  'policy',
  'terminal',
] as const satisfies readonly ApprovalDecider[];

/** A followed audit log; `close` stops following. */
export interface FollowedAuditLog {
  /** Resolves once everything the file held when it was last checked is published. */
  readonly caughtUp: Promise<void>;
  close(): void;
}

/**
 * Publishes an audit log's lines to the hub, then follows what is appended (a file that shrank
 * was rotated or truncated: it is read again from the start). The log is data, not trusted: each
 * field is type-checked, every string redacted and clipped again before the page may show it.
 * A result is paired with the oldest open call of the same run and tool (the log has no call id).
 */
export function followAuditLog(
  file: string,
  hub: UiEventHub,
  pollMs: number = AUDIT_POLL_MS,
): FollowedAuditLog {
  let offset = 0;
  let rest = Buffer.alloc(0);
  let stopped = false;
  const open_ = new Map<string, { callId: string; startedAt: number; toolInput?: unknown }[]>();
  const publishLine = (line: string) => {
    const event = toUiEvent(line, open_);
    if (event !== undefined) hub.publish(event);
  };
  const check = async () => {
    const size = (await stat(file).catch(() => undefined))?.size;
    if (size === undefined) return;
    if (size < offset) {
      offset = 0;
      rest = Buffer.alloc(0);
    }
    if (size === offset) return;
    const handle = await open(file, 'r');
    try {
      const chunk = Buffer.alloc(Math.min(size - offset, 8 * 1024 * 1024));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
      offset += bytesRead;
      rest = Buffer.concat([rest, chunk.subarray(0, bytesRead)]);
    } finally {
      await handle.close();
    }
    let newline = rest.indexOf(0x0a);
    while (newline !== -1) {
      const line = rest.subarray(0, newline);
      rest = rest.subarray(newline + 1);
      if (line.length <= MAX_LINE_BYTES) publishLine(line.toString('utf8'));
      newline = rest.indexOf(0x0a);
    }
    // An unfinished line is kept for the next check, unless it outgrew any real line.
    if (rest.length > MAX_LINE_BYTES) rest = Buffer.alloc(0);
    if (offset < size) await check();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loop = async () => {
    await check().catch(() => undefined);
    if (!stopped) timer = setTimeout(() => void loop(), pollMs);
  };
  const caughtUp = check().catch(() => undefined);
  void caughtUp.then(() => {
    if (!stopped) timer = setTimeout(() => void loop(), pollMs);
  });
  return {
    caughtUp,
    close: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

type OpenCalls = Map<string, { callId: string; startedAt: number; toolInput?: unknown }[]>;

function toUiEvent(line: string, openCalls: OpenCalls): UiEventInput | undefined {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const fields = record as Record<string, unknown>;
  const at = typeof fields['ts'] === 'string' ? Date.parse(fields['ts']) : Number.NaN;
  if (!Number.isFinite(at) || typeof fields['toolId'] !== 'string') return undefined;
  const sessionId = typeof fields['runId'] === 'string' ? clip(fields['runId'], 100) : 'unknown';
  const toolId = safeToolName(fields['toolId']);
  const key = `${sessionId}\u0000${toolId}`;
  const queue = openCalls.get(key) ?? [];
  switch (fields['event']) {
    case 'tool_call': {
      const callId = randomUUID();
      queue.push({ callId, startedAt: at, toolInput: redactValue(fields['toolInput'], 0) });
      openCalls.set(key, queue);
      return { sessionId, callId, toolId, step: 'called', at };
    }
    case 'approval_requested': {
      const call = queue[0];
      if (call === undefined || typeof fields['action'] !== 'string') return undefined;
      return {
        sessionId,
        callId: call.callId,
        toolId,
        step: 'approval_requested',
        at,
        action: fields['action'] as 'fs_write',
        preview: redactPreview(fields['preview']),
      };
    }
    case 'approval_decided': {
      const call = queue[0];
      const outcome = fields['outcome'];
      if (call === undefined || (outcome !== 'approved' && outcome !== 'denied')) return undefined;
      const by = fields['by'];
      return {
        sessionId,
        callId: call.callId,
        toolId,
        step: 'approval_decided',
        at,
        outcome,
        // The log is data: a `by` it does not know is not shown as one.
        ...(typeof by === 'string' && (DECIDERS as readonly string[]).includes(by)
          ? { by: by as ApprovalDecider }
          : {}),
        ...(typeof fields['reason'] === 'string' ? { reason: redact(fields['reason']) } : {}),
      };
    }
    case 'tool_result': {
      const call = queue.shift() ?? { callId: randomUUID(), startedAt: at };
      if (queue.length === 0) openCalls.delete(key);
      const success = fields['success'] === true;
      return {
        sessionId,
        callId: call.callId,
        toolId,
        step: 'result',
        at,
        success,
        ...(call.toolInput === undefined ? {} : { toolInput: call.toolInput }),
        outputSummary:
          typeof fields['outputSummary'] === 'string'
            ? redact(fields['outputSummary'])
            : success
              ? ''
              : 'failed',
        durationMs: Math.max(0, at - call.startedAt),
        ...(typeof fields['errorCode'] === 'string'
          ? { errorCode: clip(fields['errorCode'], 100) }
          : {}),
        ...(typeof fields['reason'] === 'string' ? { reason: redact(fields['reason']) } : {}),
      };
    }
    default:
      return undefined;
  }
}

// The fields the audit log writes (`pickLoggedPreview`), each checked for its type: a line from
// another process is data, and a `content` in it is not one this log ever wrote.
function redactPreview(preview: unknown): ToolActionPreview {
  if (typeof preview !== 'object' || preview === null) return {};
  const fields = preview as Record<string, unknown>;
  const shown: Record<string, string> = {};
  for (const key of [
    'path',
    'destination',
    'command',
    'host',
    'change',
    'server',
    'tool',
  ] as const) {
    const value = fields[key];
    if (typeof value === 'string') shown[key] = redact(value);
  }
  const { writeMode, byteCount } = fields;
  return {
    ...shown,
    ...(writeMode === 'replace' || writeMode === 'append' ? { writeMode } : {}),
    ...(typeof byteCount === 'number' && Number.isSafeInteger(byteCount) && byteCount >= 0
      ? { byteCount }
      : {}),
  };
}

// Keys as well as leaves, and a leaf with its key: a line written by another process (or an
// older toolhost) is read as data a secret may hide in anywhere.
function redactValue(value: unknown, depth: number, shownKey?: string): unknown {
  if (typeof value === 'string') return clip(redactLeaf(value, shownKey), MAX_TEXT);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => redactValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, 100)
      .map(([key, item]) => {
        const shown = clip(redactKey(key), 200);
        return [shown, redactValue(item, depth + 1, shown)];
      }),
  );
}

function redact(text: string): string {
  return clip(redactText(text), MAX_TEXT);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}
