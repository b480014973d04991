import { unwrapUntrusted, type ToolCallRound } from '@toolhost/core';
import { markUntrusted } from '@toolhost/core/host';
import type { ToolMessage, UserMessage } from '@toolhost/core/loop';

import {
  fromStepMedia,
  MAX_STEP_RESULT_BYTES,
  toStepMedia,
  type StepMedia,
} from './step-outcome.js';

/** A finished round as the conversation holds it. */
export interface RecordedRound {
  readonly toolMessage: ToolMessage;
  readonly attachments?: UserMessage;
}

/** A round as JSON in the run's state: results and media unwrapped, media bytes in base64. */
export interface StoredRound {
  readonly results: readonly StoredResult[];
  readonly attachments?: readonly StoredAttachment[];
}

interface StoredResult {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly isError: boolean;
  readonly content: unknown;
}

type StoredAttachment =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'media'; readonly toolCallId: string; readonly media: StepMedia };

/**
 * The round as JSON, or `undefined` when it has no JSON form or is over the step cap (a state
 * value is one journal entry).
 */
export function encodeRound(round: ToolCallRound): StoredRound | undefined {
  const results = round.toolMessage.content.map((part) => ({
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    isError: part.isError,
    content: unwrapUntrusted(part.content),
  }));
  const attachments = round.attachments?.content.map((part): StoredAttachment =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : {
          type: 'media',
          toolCallId: part.toolCallId,
          media: toStepMedia(unwrapUntrusted(part.media), true),
        },
  );
  const stored: StoredRound = attachments === undefined ? { results } : { results, attachments };
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(stored) ?? '', 'utf8');
  } catch {
    return undefined;
  }
  return bytes > 0 && bytes <= MAX_STEP_RESULT_BYTES ? stored : undefined;
}

/** The stored round back, its results and media branded untrusted as the round first held them. */
export function decodeRound(stored: StoredRound): RecordedRound {
  const toolMessage: ToolMessage = {
    role: 'tool',
    content: stored.results.map((result) => ({
      type: 'tool_result',
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      isError: result.isError,
      content: markUntrusted(result.content),
    })),
  };
  if (stored.attachments === undefined) return { toolMessage };
  const attachments: UserMessage = {
    role: 'user',
    content: stored.attachments.map((part) =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : {
            type: 'media',
            toolCallId: part.toolCallId,
            media: markUntrusted(fromStepMedia(part.media)),
          },
    ),
  };
  return { toolMessage, attachments };
}
