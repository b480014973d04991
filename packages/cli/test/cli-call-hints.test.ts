import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callCli } from './run-cli.js';
import { createWorkspace, type Workspace } from './workspace.js';

describe('toolhost call: hints for the person at the terminal', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
    await ws.write(
      'hundred.txt',
      Array.from({ length: 100 }, (_, i) => `line ${i + 1}\n`).join(''),
    );
  });
  afterEach(() => ws.cleanup());

  const call = (args: readonly string[]) => callCli(ws, args);

  it('suggests the nearest registered id for a typo, and runs nothing', async () => {
    const run = await call(['read_fil', '{"path":"notes.txt"}']);

    expect(run.code).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('toolhost: unknown tool "read_fil"');
    expect(run.stderr).toContain('hint: did you mean read_file?');
  });

  it('keeps the error message plain: the suggestion is only a hint', async () => {
    const run = await call(['raed_file', '{"path":"notes.txt"}', '--json']);

    const outcome = JSON.parse(run.stdout);
    expect(outcome.ok).toBe(false);
    expect(outcome.error.message).toBe(
      'unknown tool "raed_file"; available tools: git_status, list_directory, read_file, search_files',
    );
    expect(outcome.error.hint).toContain('did you mean read_file?');
  });

  it('suggests nothing for a name far from every id', async () => {
    const run = await call(['delete_everything', '{}']);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain('unknown tool "delete_everything"');
    expect(run.stderr).not.toContain('did you mean');
  });

  it('says how many lines follow a window and which offset reads on', async () => {
    const run = await call(['read_file', '{"path":"hundred.txt","limit":5}']);

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('line 1\nline 2\nline 3\nline 4\nline 5\n');
    expect(run.stderr).toContain(
      'toolhost: 95 more lines follow (of 100): pass "offset": 5 to continue',
    );
  });

  it('counts from the offset, and says nothing once the window reaches the end', async () => {
    const middle = await call(['read_file', '{"path":"hundred.txt","offset":90,"limit":9}']);
    const last = await call(['read_file', '{"path":"hundred.txt","offset":95,"limit":5}']);
    const whole = await call(['read_file', '{"path":"hundred.txt"}']);

    expect(middle.stderr).toContain('1 more line follows (of 100): pass "offset": 99 to continue');
    expect(last.stderr).not.toContain('follow');
    expect(whole.stderr).not.toContain('follow');
  });
});
