import { EXIT_CODES } from '../exit-codes.js';

/** Why `toolhost ui` found no page to show. */
export type UiNotRunningReason =
  'no_record' | 'unreadable_record' | 'server_gone' | 'not_answering';

const MESSAGES: Readonly<Record<UiNotRunningReason, string>> = {
  no_record: 'no toolhost serve --ui is running for this state dir (it has no ui-url file)',
  unreadable_record:
    'the ui-url file in the state dir is not one toolhost serve --ui wrote; remove it',
  server_gone:
    'the toolhost serve --ui that wrote the ui-url file is no longer running (it was stopped without cleaning up)',
  not_answering: 'the toolhost serve --ui recorded in the ui-url file does not answer on 127.0.0.1',
};

/**
 * `toolhost ui` with no `--audit-log` found no running `serve --ui` page. Exits with
 * `EXIT_CODES.unavailable`; the message names no path and never the recorded URL (its token).
 */
export class UiNotRunningError extends Error {
  override readonly name = 'UiNotRunningError';
  readonly code = 'ui_not_running';
  readonly exitCode: number = EXIT_CODES.unavailable;
  readonly hint =
    'start `toolhost serve --ui` (with the same --state-dir), or pass --audit-log <file> for a read-only page';

  constructor(readonly reason: UiNotRunningReason) {
    super(MESSAGES[reason]);
  }
}
