import type { DurableMediaPart } from '../tool-host.js';
import type { Untrusted } from '../untrusted.js';

// Trusted positions hold `string` only. `Untrusted<T>` is a branded object, not a string, so
// putting a tool result or an attachment into a system or instruction slot does not compile.

/** Trusted text: written by the embedder or the engine, never by a tool. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** A system or instruction message: trusted text only. */
export interface InstructionMessage {
  readonly role: 'system';
  readonly content: string;
}

/** A model-requested call, echoed back in the assistant turn. */
export interface ToolCallPart {
  readonly type: 'tool_call';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: unknown;
}

/** The model's own turn. */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: readonly (TextPart | ToolCallPart)[];
}

/**
 * A tool result in its tool position. `content` is the bounded result on success, or the
 * secret-free feedback text on a fed-back failure; both stay branded until the adapter places them.
 */
export interface ToolResultPart {
  readonly type: 'tool_result';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly isError: boolean;
  readonly content: Untrusted<unknown>;
}

/** The tool position: results of one model response, in call order. */
export interface ToolMessage {
  readonly role: 'tool';
  readonly content: readonly ToolResultPart[];
}

/** A media attachment a tool returned, delivered inside a reported-content fence. */
export interface ReportedMediaPart {
  readonly type: 'media';
  readonly toolCallId: string;
  readonly media: Untrusted<DurableMediaPart>;
}

/** A user-position message: trusted text, or reported media between trusted fence lines. */
export interface UserMessage {
  readonly role: 'user';
  readonly content: readonly (TextPart | ReportedMediaPart)[];
}

/** Any message the reference loop reads or writes. */
export type LoopMessage = InstructionMessage | UserMessage | AssistantMessage | ToolMessage;
