import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (where `tsx` resolves from). */
export const REPO_ROOT = path.resolve(here, '../../../../..');
const BIN = path.resolve(here, '../../bin.ts');

/** A connected SDK client on a real `toolhost serve` process. */
export interface ServeClient {
  readonly client: Client;
  /** Every elicitation message the server sent. */
  readonly elicitations: string[];
  /** The answer the next elicitations get. */
  answer: ElicitResult;
  readonly pid: number | null;
  close(): Promise<void>;
}

/** Spawns `toolhost serve <args>` and connects; `elicitation` declares the client capability. */
export async function connectServe(
  args: readonly string[],
  options: { readonly elicitation?: boolean; readonly env?: Record<string, string> } = {},
): Promise<ServeClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=source', '--import', 'tsx', BIN, 'serve', ...args],
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stderr: 'ignore',
  });
  const client = new Client(
    { name: 'toolhost-test', version: '1.0.0' },
    { capabilities: options.elicitation === true ? { elicitation: { form: {} } } : {} },
  );
  const state: ServeClient = {
    client,
    elicitations: [],
    answer: { action: 'decline' },
    get pid() {
      return transport.pid;
    },
    close: () => client.close(),
  };
  if (options.elicitation === true) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      state.elicitations.push(request.params.message);
      return state.answer;
    });
  }
  await client.connect(transport);
  return state;
}
