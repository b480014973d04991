import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('serve --http on a busy port', () => {
  let ws: Workspace;
  let busy: Server;
  beforeEach(async () => {
    ws = await createWorkspace();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => busy.close(() => resolve()));
    await ws.cleanup();
  });

  it('says the port is in use and exits with the usage code', async () => {
    const address = busy.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;

    const result = await runCli(['serve', '--http', String(port), ...ws.stateFlags], {
      cwd: ws.root,
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `toolhost: port ${port} on 127.0.0.1 is already in use; pick another with --http <port> or omit the port for a free one`,
    );
    expect(result.stderr).not.toContain('internal error');
  });
});

describe('NODE_DEBUG=toolhost', () => {
  let ws: Workspace;
  // A state dir that is a regular file: the host's mkdir fails with a raw EEXIST, which the CLI
  // does not classify, so the command ends in an internal error.
  let stateFile = '';
  beforeEach(async () => {
    ws = await createWorkspace();
    stateFile = join(ws.root, '..', 'state-is-a-file');
    await writeFile(stateFile, 'not a directory\n');
  });
  afterEach(() => ws.cleanup());

  const failInternally = (env: Record<string, string | undefined>) =>
    runCli(['call', 'read_file', '{"path":"notes.txt"}', '--state-dir', stateFile], {
      cwd: ws.root,
      env,
    });

  it('prints the internal error with its stack and fields on stderr', async () => {
    const result = await failInternally({ NODE_DEBUG: 'toolhost' });

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^TOOLHOST \d+: toolhost internal failure: Error: EEXIST/m);
    expect(result.stderr).toMatch(/^ {4}at .*resolveHostOptions/m);
    expect(result.stderr).toContain("syscall: 'mkdir'");
    expect(result.stderr).toContain('toolhost: internal error (run with NODE_DEBUG=toolhost');
  });

  it('prints only the secret-free message without it', async () => {
    const result = await failInternally({ NODE_DEBUG: undefined });

    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'toolhost: internal error (run with NODE_DEBUG=toolhost for details)\n',
    );
  });

  it("prints a usage error's cause: the listen error behind a busy port", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const address = busy.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;

    const result = await runCli(['serve', '--http', String(port), ...ws.stateFlags], {
      cwd: ws.root,
      env: { NODE_DEBUG: 'toolhost' },
    });
    await new Promise<void>((resolve) => busy.close(() => resolve()));

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^TOOLHOST \d+: toolhost usage failure: /m);
    expect(result.stderr).toContain('[cause]: Error: listen EADDRINUSE');
  });
});
