import { mkdir, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalMode } from '../config/config-schema.js';
import {
  ApprovalBroker,
  type ApprovalChange,
  type PendingApproval,
} from '../ui/approval-broker.js';
import { createToolServer } from './create-tool-server.js';
import { createTestServerOptions } from './test-support/in-process-server.js';
import { errorMeta, textOf } from './test-support/tool-result-parts.js';

const SECRET = 'AKIAIOSFODNN7EXAMPLE';

/** The client's elicitation handler: may hang until its request is withdrawn. */
type Elicit = (message: string, signal: AbortSignal) => Promise<ElicitResult>;

describe('serve with the control tower (approvalBroker)', () => {
  let sandbox = '';
  let root = '';
  const closers: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-broker-')));
    root = path.join(sandbox, 'app');
    await mkdir(root);
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await rm(sandbox, { recursive: true, force: true });
  });

  async function serve(mode: ApprovalMode, broker: ApprovalBroker, elicit?: Elicit) {
    const built = await createTestServerOptions({
      root,
      stateDir: path.join(sandbox, 'state'),
      grant: ['read_file', 'write_file', 'edit_file'],
      mode,
    });
    const server = createToolServer({ ...built.serverOptions, approvalBroker: broker });
    const client: Client = new Client(
      { name: 'toolhost-test', version: '1.0.0' },
      { capabilities: elicit === undefined ? {} : { elicitation: { form: {} } } },
    );
    if (elicit !== undefined) {
      client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        elicit(request.params.message, extra.signal),
      );
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    closers.push(async () => {
      broker.close();
      await client.close();
      await server.close();
      await built.close();
    });
    return { client, server };
  }

  const write = (client: Client, file: string, content: string, signal?: AbortSignal) =>
    client.callTool(
      { name: 'write_file', arguments: { path: file, content } },
      undefined,
      signal === undefined ? {} : { signal },
    ) as Promise<CallToolResult>;

  it('waits on the page under ask when the client cannot elicit; an approval lands the write', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const { client } = await serve('ask', broker);

    const call = write(client, 'notes.txt', `key ${SECRET}`);
    const pending = await waitingFor(broker, call);

    expect(pending).toMatchObject({
      sessionId: 'stdio',
      toolId: 'write_file',
      action: 'fs_write',
      preview: { path: 'notes.txt' },
    });
    expect(JSON.stringify(broker.pending())).not.toContain(SECRET);
    await expect(readFile(path.join(root, 'notes.txt'), 'utf8')).rejects.toThrow();
    expect(broker.decide(pending.id, { choice: 'once' })).toBe(true);
    const result = await call;
    expect(result.isError).not.toBe(true);
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe(`key ${SECRET}`);
    expect(broker.decide(pending.id, { choice: 'once' })).toBe(false);
  });

  it('shows the path redacted on the page, never a planted secret', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const { client } = await serve('ask', broker);

    const call = write(client, `keys/${SECRET}.txt`, SECRET);
    const pending = await waitingFor(broker, call);

    expect(pending.preview.path).toBe('keys/[redacted].txt');
    expect(JSON.stringify(broker.pending())).not.toContain(SECRET);
    broker.decide(pending.id, { choice: 'deny' });
    expect((await call).isError).toBe(true);
  });

  it("reaches the client as a person's rejection (user_rejected) with the page's reason", async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const { client } = await serve('ask', broker);

    const call = write(client, 'notes.txt', 'x');
    const pending = await waitingFor(broker, call);
    broker.decide(pending.id, { choice: 'deny', reason: 'not\u001b[2J that file' });
    const result = await call;

    expect(result.isError).toBe(true);
    expect(errorMeta(result)).toMatchObject({ code: 'tool_denied', reason: 'user_rejected' });
    expect(textOf(result)).toContain('not [2J that file');
    expect(textOf(result)).not.toContain('\u001b');
    await expect(readFile(path.join(root, 'notes.txt'))).rejects.toThrow();
  });

  it('denies on timeout as nobody having decided (approval_timeout), saying it timed out', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 150 });
    const changes = record(broker);
    const { client } = await serve('ask', broker);

    const result = await write(client, 'notes.txt', 'x');

    expect(result.isError).toBe(true);
    expect(errorMeta(result)).toMatchObject({ reason: 'approval_timeout' });
    expect(textOf(result)).toContain(
      'timed out waiting for approval from the toolhost control tower',
    );
    expect(changes.map((change) => change.kind)).toEqual(['requested', 'settled']);
    expect(changes.at(-1)).toMatchObject({ by: 'timeout', outcome: 'denied' });
    await expect(readFile(path.join(root, 'notes.txt'))).rejects.toThrow();
  });

  it('remembers a session approval for this client: the next write is not asked', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const { client } = await serve('ask', broker);

    const first = write(client, 'a.txt', 'a');
    broker.decide((await waitingFor(broker, first)).id, { choice: 'session' });
    expect((await first).isError).not.toBe(true);
    const second = await write(client, 'b.txt', 'b');

    expect(second.isError).not.toBe(true);
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('b');
    expect(broker.pending()).toEqual([]);
  });

  it('sends accept-edits writes and auto protected paths to the page', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const { client: edits } = await serve('accept-edits', broker);
    const call = write(edits, 'notes.txt', 'x');
    broker.decide((await waitingFor(broker, call)).id, { choice: 'once' });
    expect((await call).isError).not.toBe(true);

    const { client: auto } = await serve('auto', broker);
    expect((await write(auto, 'plain.txt', 'x')).isError).not.toBe(true);
    const guarded = auto.callTool({
      name: 'write_file',
      arguments: { path: '.github/workflows/ci.yml', content: 'x', createDirs: true },
    }) as Promise<CallToolResult>;
    const pending = await waitingFor(broker, guarded);
    expect(pending.note).toBe('protected path: always asks');
    broker.decide(pending.id, { choice: 'once' });
    const guardedResult = await guarded;
    expect(guardedResult.isError, textOf(guardedResult)).not.toBe(true);
  });

  it('settles the page entry as cancelled when the client cancels the call', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    const { client } = await serve('ask', broker);
    const controller = new AbortController();

    const call = write(client, 'notes.txt', 'x', controller.signal);
    const pending = await waitingFor(broker, call);
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow();
    await until(() => broker.pending().length === 0);

    expect(changes.at(-1)).toMatchObject({ id: pending.id, by: 'cancelled', outcome: 'denied' });
    expect(broker.decide(pending.id, { choice: 'once' })).toBe(false);
  });

  it('denies a waiting call when the tower closes, as withdrawn (no person answered)', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const { client } = await serve('ask', broker);

    const call = write(client, 'notes.txt', 'x');
    await waitingFor(broker, call);
    broker.close();
    const result = await call;

    expect(errorMeta(result)).toMatchObject({ reason: 'approval_withdrawn' });
    expect(textOf(result)).toContain('control tower closed');
  });

  it('refuses a write to a floor-protected path before anyone is asked (decide before asking)', async () => {
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const changes = record(broker);
    let elicited = 0;
    await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
    await symlink('.git', path.join(root, 'alias'));
    const { client } = await serve('ask', broker, async () => {
      elicited += 1;
      return { action: 'accept', content: { decision: 'once' } };
    });

    for (const file of ['.git/hooks/pre-commit', 'alias/hooks/pre-push', '../escape.txt']) {
      const result = await write(client, file, '#!/bin/sh\necho owned\n');
      expect(result.isError).toBe(true);
      expect(errorMeta(result)).toMatchObject({
        code: 'tool_denied',
        reason: file === '../escape.txt' ? 'scope_escape' : 'protected_path',
      });
    }

    // Nobody was asked: no card on the page, no elicitation, nothing written.
    expect(changes).toEqual([]);
    expect(elicited).toBe(0);
    await expect(readFile(path.join(root, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
    await expect(readFile(path.join(root, '.git', 'hooks', 'pre-push'))).rejects.toThrow();
  });

  describe('when the client can elicit', () => {
    it('lets the elicitation win: the write lands and the page entry is withdrawn', async () => {
      const broker = new ApprovalBroker({ timeoutMs: 60_000 });
      const changes = record(broker);
      let asked: (answer: (result: ElicitResult) => void) => void = () => undefined;
      const elicited = new Promise<(result: ElicitResult) => void>((resolve) => (asked = resolve));
      const { client } = await serve(
        'ask',
        broker,
        () => new Promise<ElicitResult>((resolve) => asked(resolve)),
      );

      const call = write(client, 'notes.txt', 'from elicitation');
      const pending = await waitingFor(broker, call);
      const answer = await elicited;
      expect(broker.pending()).toHaveLength(1);
      answer({ action: 'accept', content: { decision: 'approve once' } });
      const result = await call;

      expect(result.isError).not.toBe(true);
      expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('from elicitation');
      expect(broker.pending()).toEqual([]);
      expect(changes.at(-1)).toMatchObject({
        id: pending.id,
        by: 'elicitation',
        outcome: 'approved',
      });
      expect(broker.decide(pending.id, { choice: 'deny' })).toBe(false);
    });

    it("keeps an elicitation's rejection a person's (user_rejected)", async () => {
      const broker = new ApprovalBroker({ timeoutMs: 60_000 });
      const { client } = await serve('ask', broker, () =>
        Promise.resolve<ElicitResult>({ action: 'decline' }),
      );

      const result = await write(client, 'notes.txt', 'x');

      expect(errorMeta(result)).toMatchObject({ reason: 'user_rejected' });
      expect(broker.pending()).toEqual([]);
    });

    it("lets the page win: the client's elicitation request is withdrawn", async () => {
      const broker = new ApprovalBroker({ timeoutMs: 60_000 });
      let withdrawn: Promise<void> = Promise.resolve();
      const { client, server } = await serve(
        'ask',
        broker,
        (_message, signal) =>
          new Promise<ElicitResult>((_resolve, reject) => {
            withdrawn = new Promise<void>((resolve) =>
              signal.addEventListener(
                'abort',
                () => {
                  resolve();
                  reject(new Error('withdrawn'));
                },
                { once: true },
              ),
            );
          }),
      );

      // The SDK's client ignores a cancel of request id 0: let the elicitation be the second.
      await server.ping();
      const call = write(client, 'notes.txt', 'from the page');
      const pending = await waitingFor(broker, call);

      expect(broker.decide(pending.id, { choice: 'once' })).toBe(true);

      const result = await call;

      expect(result.isError).not.toBe(true);
      expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('from the page');
      await withdrawn;
    });
  });
});

function record(broker: ApprovalBroker): ApprovalChange[] {
  const changes: ApprovalChange[] = [];
  broker.subscribe((change) => changes.push(change));
  return changes;
}

/** The next pending approval; fails when the call settles first (it was never asked). */
async function waitingFor(
  broker: ApprovalBroker,
  call: Promise<unknown>,
): Promise<PendingApproval> {
  const requested = new Promise<PendingApproval>((resolve) => {
    const known = broker.pending().at(-1);
    if (known !== undefined) resolve(known);
    const stop = broker.subscribe((change) => {
      if (change.kind !== 'requested') return;
      stop();
      resolve(change.approval);
    });
  });
  const settledFirst = call.then(
    (result) => {
      throw new Error(`the call settled without waiting: ${textOf(result)}`);
    },
    (error: unknown) => {
      throw error;
    },
  );
  return Promise.race([requested, settledFirst]);
}

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !condition(); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(condition()).toBe(true);
}
