import { existsSync, readFileSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectInProcess } from './test-support/in-process-server.js';
import { errorMeta, textOf } from './test-support/tool-result-parts.js';

// A tiny real WAV (44-byte header, 4 silent samples): binary, not viewable, so read_file stores
// it and returns the handle only.
const WAV = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x2c, 0, 0, 0]),
  Buffer.from('WAVEfmt '),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]),
  Buffer.from('data'),
  Buffer.from([8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
]);

interface PathCase {
  readonly id: string;
  readonly path: string;
  readonly op: 'read' | 'write' | 'list';
  readonly expect: 'deny' | 'allow';
  readonly platform?: string;
  readonly setup?: readonly {
    type: 'file' | 'dir' | 'symlink';
    path: string;
    target?: string;
    content?: string;
  }[];
}

// The repository's copy of the shared corpus (test/corpus.test.ts keeps it equal).
const here = path.dirname(fileURLToPath(import.meta.url));
const cases = (
  JSON.parse(
    readFileSync(path.resolve(here, '../../../../test/corpus/paths.json'), 'utf8'),
  ) as PathCase[]
).filter((entry) => entry.platform !== 'win32');

const TOOL_OF = { read: 'read_file', write: 'write_file', list: 'list_directory' } as const;

describe('createToolServer', () => {
  let sandbox = '';
  let root = '';
  let outside = '';
  beforeEach(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-mcp-')));
    root = path.join(sandbox, 'app');
    outside = path.join(sandbox, 'outside');
    await mkdir(root);
    await mkdir(outside);
  });
  afterEach(() => rm(sandbox, { recursive: true, force: true }));

  const serve = (mode: 'ask' | 'plan' | 'accept-edits' | 'auto', extra: object = {}) =>
    connectInProcess({
      root,
      stateDir: path.join(sandbox, 'state'),
      grant: ['read_file', 'write_file', 'list_directory', 'run_command'],
      mode,
      ...extra,
    });

  // The adversarial path table of the filesystem issue, replayed through tools/call in `auto`
  // mode so every write reaches the host's floors instead of stopping at the approval gate.
  it.each(cases.map((entry) => [entry.id, entry.op, entry.expect, entry] as const))(
    '%s: tools/call %s is %s',
    async (_id, op, expected, entry) => {
      for (const step of entry.setup ?? []) {
        const target = path.resolve(root, expand(step.path));
        await mkdir(step.type === 'dir' ? target : path.dirname(target), { recursive: true });
        if (step.type === 'file') await writeFile(target, step.content ?? 'OUTSIDE-SECRET');
        if (step.type === 'symlink') await symlink(expand(step.target ?? ''), target);
      }
      const server = await serve('auto');
      try {
        const args =
          op === 'write'
            ? { path: expand(entry.path), content: 'WRITTEN-BY-MCP' }
            : { path: expand(entry.path) };

        const outcome = await server.client.callTool({ name: TOOL_OF[op], arguments: args }).then(
          (result) => ({ failed: result.isError === true, text: JSON.stringify(result.content) }),
          (error: unknown) => ({ failed: error instanceof McpError, text: String(error) }),
        );

        expect(outcome.failed).toBe(expected === 'deny');
        expect(outcome.text).not.toContain('OUTSIDE-SECRET');
        if (expected === 'deny') expect(await containsWritten(sandbox)).toBe(false);
      } finally {
        await server.close();
      }
    },
  );

  it('refuses every governed action in plan mode, even with elicitation', async () => {
    const server = await serve('plan', {
      elicit: () => ({ action: 'accept', content: { decision: 'approve once' } }),
    });

    const result = await server.client.callTool({
      name: 'write_file',
      arguments: { path: 'a.txt', content: 'x' },
    });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/mode plan refuses/);
    expect(errorMeta(result)).toEqual({
      code: 'tool_denied',
      reason: 'no_approval_hook',
      classification: 'fatal',
    });
    expect(existsSync(path.join(root, 'a.txt'))).toBe(false);
    await server.close();
  });

  it('follows the configured policy in auto mode without elicitation', async () => {
    const server = await serve('auto');

    const result = await server.client.callTool({
      name: 'write_file',
      arguments: { path: 'a.txt', content: 'auto' },
    });

    expect(result.isError).toBeUndefined();
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('auto');
    await server.close();
  });

  it('still applies the command allowlist in auto mode', async () => {
    const server = await serve('auto');

    const result = await server.client.callTool({
      name: 'run_command',
      arguments: { command: 'id' },
    });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/command_not_allowed\nhint: add the exact command/);
    await server.close();
  });

  it('refuses accept-edits without elicitation, saying the client cannot be asked', async () => {
    const server = await serve('accept-edits');

    const result = await server.client.callTool({
      name: 'write_file',
      arguments: { path: 'a.txt', content: 'x' },
    });

    expect(textOf(result)).toMatch(/does not support elicitation/);
    expect(textOf(result)).not.toContain('--json');
    expect(errorMeta(result)).toMatchObject({ reason: 'no_approval_hook' });
    await server.close();
  });

  it('asks before a protected path in auto mode when the client can elicit', async () => {
    const asked: string[] = [];
    const server = await serve('auto', {
      elicit: (message: string) => {
        asked.push(message);
        return { action: 'decline' };
      },
    });

    const result = await server.client.callTool({
      name: 'write_file',
      arguments: { path: '.github/workflows/ci.yml', content: 'x' },
    });

    expect(errorMeta(result)).toEqual({
      code: 'tool_denied',
      reason: 'user_rejected',
      classification: 'fatal',
    });
    expect(asked.at(-1)).toContain('protected path');
    await server.close();
  });

  it('shows the client a bidi override and a zero-width space escaped, never raw', async () => {
    const asked: string[] = [];
    const server = await serve('ask', {
      elicit: (message: string) => {
        asked.push(message);
        return { action: 'decline' };
      },
    });

    const result = await server.client.callTool({
      name: 'write_file',
      arguments: { path: 'notes/\u202Egpj.sh\u200B', content: 'x' },
    });

    expect(textOf(result)).toMatch(/user_rejected/);
    expect(asked.at(-1)).not.toMatch(/[\u202E\u200B]/u);
    expect(asked.at(-1)).toContain('path: notes/\\u202Egpj.sh\\u200B');
    await server.close();
  });

  it('reports args that fail validation as a correctable isError result', async () => {
    const server = await serve('ask');

    const result = await server.client.callTool({ name: 'read_file', arguments: { path: 7 } });

    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('args invalid: path');
    await server.close();
  });

  it('refuses a protected path in auto mode without elicitation, naming no terminal flag', async () => {
    const server = await serve('auto');

    const result = await server.client.callTool({
      name: 'write_file',
      arguments: { path: '.github/workflows/ci.yml', content: 'x' },
    });

    expect(textOf(result)).toMatch(/protected path always needs a human: connect a client/);
    expect(textOf(result)).not.toMatch(/terminal|--json/);
    expect(errorMeta(result)).toMatchObject({ reason: 'no_approval_hook' });
    await server.close();
  });

  it.each(['ask', 'accept-edits'] as const)(
    'refuses a write out of the root as scope_escape in %s mode without asking anyone',
    async (mode) => {
      const asked: string[] = [];
      const server = await serve(mode, {
        elicit: (message: string) => {
          asked.push(message);
          return { action: 'accept', content: { decision: 'approve once' } };
        },
      });

      const result = await server.client.callTool({
        name: 'write_file',
        arguments: { path: '../outside/x.txt', content: 'WRITTEN-BY-MCP' },
      });

      expect(errorMeta(result)).toEqual({
        code: 'tool_denied',
        reason: 'scope_escape',
        classification: 'recoverable',
      });
      expect(textOf(result)).not.toMatch(/needs approval/);
      expect(asked).toEqual([]);
      expect(await containsWritten(sandbox)).toBe(false);
      await server.close();
    },
  );

  it('answers write_file into a missing directory with a hint naming createDirs', async () => {
    const server = await serve('auto');

    const result = await server.client.callTool({
      name: 'write_file',
      arguments: { path: 'missing/dir/a.txt', content: 'x' },
    });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'tool write_file failed: not_found\nhint: a parent directory does not exist: pass "createDirs": true to create it',
    );
    expect(errorMeta(result)).toMatchObject({ code: 'tool_failed', reason: 'not_found' });
    await server.close();
  });

  it('sends a handle-only media part read from the store, within the media scope', async () => {
    await writeFile(path.join(root, 'tone.wav'), WAV);
    const server = await serve('auto');

    const result = await server.client.callTool({
      name: 'read_file',
      arguments: { path: 'tone.wav' },
    });

    expect(result.content).toContainEqual({
      type: 'audio',
      data: WAV.toString('base64'),
      mimeType: 'audio/wav',
    });
    await server.close();
  });

  it('withholds media past the byte cap with a line saying why', async () => {
    await writeFile(path.join(root, 'tone.wav'), WAV);
    const server = await serve('auto', { maxMediaBytes: WAV.byteLength - 1 });

    const result = await server.client.callTool({
      name: 'read_file',
      arguments: { path: 'tone.wav' },
    });

    expect(JSON.stringify(result.content)).not.toContain(WAV.toString('base64'));
    expect(textOf(result)).toMatch(
      new RegExp(
        `audio/wav, ${WAV.byteLength} bytes\\) not sent: over the ${WAV.byteLength - 1}-byte media cap`,
      ),
    );
    await server.close();
  });

  function expand(value: string): string {
    return value
      .replaceAll('${SANDBOX}', sandbox)
      .replaceAll('${ROOT}', root)
      .replaceAll('${OUTSIDE}', outside);
  }
});

// A denied write must leave no trace of its payload anywhere in the sandbox: grep the tree.
async function containsWritten(sandbox: string): Promise<boolean> {
  const visit = async (directory: string): Promise<boolean> => {
    for (const name of await readdir(directory)) {
      const full = path.join(directory, name);
      const stats = await lstat(full);
      if (stats.isDirectory() && (await visit(full))) return true;
      if (stats.isFile() && (await readFile(full, 'utf8')).includes('WRITTEN-BY-MCP')) return true;
    }
    return false;
  };
  return visit(sandbox);
}
