import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

// The README's library example is examples/library.ts: it must keep running as documented.
const example = fileURLToPath(new URL('../examples/library.ts', import.meta.url));
const run = promisify(execFile);

describe('the README library example', () => {
  let root = '';
  let state = '';
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true });
  });

  it('reads a bounded file and refuses an escape', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'toolhost-example-'));
    state = await mkdtemp(path.join(tmpdir(), 'toolhost-example-home-'));
    await writeFile(path.join(root, 'README.md'), 'one\ntwo\nthree\nfour\n');

    const { stdout } = await run(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', example, root],
      { env: { PATH: process.env['PATH'] ?? '', HOME: state } },
    );

    expect(stdout).toContain("content: 'one\\ntwo\\nthree\\n'");
    expect(stdout).not.toContain('four');
    expect(stdout).toContain('refused: tool read_file denied: scope_escape');
  });
});
