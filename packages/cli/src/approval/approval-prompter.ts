import type { ToolActionClass, ToolActionPreview, ToolId } from '@toolhost/core';
import type { AbortSignalLike } from '@toolhost/core/host';

/** What a human is shown: the REDACTED preview only. */
export interface ApprovalPrompt {
  readonly toolId: ToolId;
  readonly action: ToolActionClass;
  readonly preview: ToolActionPreview;
  /** Why this needed a human (e.g. a protected path under `auto`). */
  readonly note?: string;
}

/** Where a person answered: absent means the terminal prompt (the CLI's own). */
export type ApprovalAnswerer = 'page' | 'elicitation' | 'terminal';

/** A human's answer: the four choices of the prompt plus "no, because …". */
export type ApprovalAnswer = (
  | { readonly choice: 'once' }
  | { readonly choice: 'always_target' }
  | { readonly choice: 'always_tool' }
  | { readonly choice: 'no'; readonly reason?: string }
) & { readonly by?: ApprovalAnswerer };

/** Asks a human; rejects with the signal's reason when aborted while waiting. */
export interface ApprovalPrompter {
  ask(prompt: ApprovalPrompt, signal?: AbortSignalLike): Promise<ApprovalAnswer>;
}
