import { request } from 'node:http';
import { UiNotRunningError } from '../ui/ui-not-running-error.js';
import { readUiUrlFile } from '../ui/ui-url-file.js';
import type { CliIo } from './cli-io.js';

/** How long the running page has to answer before `toolhost ui` calls it gone. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * `toolhost ui` with no `--audit-log`: prints the URL of the `serve --ui` page running on this
 * state dir, once its process is alive and the page answers with the recorded token. It never
 * starts a browser: an opener's command line would carry the token, and every local user can
 * read another's command lines. Throws `UiNotRunningError` when there is nothing to open.
 */
export async function showRunningUi(io: CliIo, stateDir: string): Promise<void> {
  const lookup = await readUiUrlFile(stateDir);
  if (lookup.kind === 'problem') {
    throw new UiNotRunningError(
      lookup.problem === 'missing'
        ? 'no_record'
        : lookup.problem === 'server_gone'
          ? 'server_gone'
          : 'unreadable_record',
    );
  }
  if (!(await answers(lookup.record.url))) throw new UiNotRunningError('not_answering');
  // stdout only: the URL is a secret, printed where the person asked for it.
  io.stdout.write(`${lookup.record.url}\n`);
}

// The page itself with its token: 200 from this URL is that serve's page, nothing else's.
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request(url, { method: 'GET', timeout: PROBE_TIMEOUT_MS }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    probe.once('timeout', () => probe.destroy());
    probe.once('error', () => resolve(false));
    probe.end();
  });
}
