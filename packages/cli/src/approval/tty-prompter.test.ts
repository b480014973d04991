import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTtyPrompter, renderPrompt } from './tty-prompter.js';

const prompt = {
  toolId: 'run_command',
  action: 'process',
  preview: { command: 'npm test' },
} as const;

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  return { input, output, shown: () => shown };
}

describe('createTtyPrompter', () => {
  it.each([
    ['y', { choice: 'once' }],
    ['t', { choice: 'always_target' }],
    ['a', { choice: 'always_tool' }],
    ['n', { choice: 'no' }],
  ])('maps the answer %s', async (line, expected) => {
    const io = streams();
    const pending = createTtyPrompter(io).ask(prompt);

    io.input.write(`${line}\n`);

    await expect(pending).resolves.toEqual(expected);
  });

  it('asks for a reason after "r", even when typed ahead', async () => {
    const io = streams();
    const pending = createTtyPrompter(io).ask(prompt);

    io.input.write('r\nnot on main\n');

    await expect(pending).resolves.toEqual({ choice: 'no', reason: 'not on main' });
  });

  it('asks again after an unknown answer', async () => {
    const io = streams();
    const pending = createTtyPrompter(io).ask(prompt);

    io.input.write('maybe\ny\n');

    await expect(pending).resolves.toEqual({ choice: 'once' });
    expect(io.shown()).toContain('answer y, t, a, n or r');
  });

  it('refuses when the input closes', async () => {
    const io = streams();
    const pending = createTtyPrompter(io).ask(prompt);

    io.input.end();

    await expect(pending).resolves.toMatchObject({ choice: 'no' });
  });

  it('rejects with the abort reason when aborted while waiting', async () => {
    const io = streams();
    const controller = new AbortController();
    const pending = createTtyPrompter(io).ask(prompt, controller.signal);

    controller.abort(new Error('interrupted'));

    await expect(pending).rejects.toThrow('interrupted');
  });

  it('shows the redacted preview', () => {
    const text = renderPrompt({ ...prompt, preview: { command: 'curl [redacted]' } });

    expect(text).toContain('command: curl [redacted]');
    expect(text).toContain('you cannot see all of it');
  });

  it('says nothing about redaction when nothing was redacted', () => {
    const text = renderPrompt(prompt);

    expect(text).not.toContain('redacted');
  });

  it('prints a hostile target inert: no escape sequence, no extra line', () => {
    const text = renderPrompt({
      ...prompt,
      preview: { command: 'rm -rf ~\x1b[2K\r\n  command: ls' },
    });

    expect(text).not.toContain('\x1b');
    expect(text).toContain('command: rm -rf ~^[[2K^M^J  command: ls');
  });

  it('shows bidi and zero-width characters escaped, in the target and the tool id', () => {
    const text = renderPrompt({
      toolId: 'mcp__docs__write\u200B',
      action: 'fs_write',
      preview: { path: 'notes/\u202Egpj.sh' },
    });

    expect(text).not.toMatch(/[\u202E\u200B]/u);
    expect(text).toContain('path:    notes/\\u202Egpj.sh');
    expect(text).toContain('mcp__docs__write\\u200B wants to write a file');
  });

  it('shows an edit as its before/after lines, each printed inert under the path', () => {
    const text = renderPrompt({
      toolId: 'edit_file',
      action: 'fs_write',
      preview: { path: 'src/a.ts', change: '- const a = 1;\n+ const a = 2;\x1b[2K' },
    });

    expect(text).toContain(
      '  path:    src/a.ts\n  change:\n    - const a = 1;\n    + const a = 2;^[[2K\n',
    );
    expect(text).not.toContain('\x1b');
  });

  it('shows a move as both paths, each printed inert', () => {
    const text = renderPrompt({
      toolId: 'move_file',
      action: 'fs_write',
      preview: { path: 'notes.txt', destination: 'docs/\u202Egpj.sh' },
    });

    expect(text).toContain('path:    notes.txt');
    expect(text).toContain('to:      docs/\\u202Egpj.sh');
  });

  it('leaves an ordinary Unicode target as it is', () => {
    const text = renderPrompt({ ...prompt, preview: { command: 'cat résumé/日本.md' } });

    expect(text).toContain('command: cat résumé/日本.md');
  });

  it('shows a write as replace or append, its byte count and its scrubbed start, cut visibly', () => {
    const text = renderPrompt({
      toolId: 'write_file',
      action: 'fs_write',
      preview: {
        path: 'notes.txt',
        writeMode: 'append',
        byteCount: 9000,
        content: 'token: [redacted]\nnext\x1b[2J line',
        contentTruncated: true,
      },
    });

    expect(text).toContain(
      [
        '  path:    notes.txt',
        '  write:   append 9000 bytes to the end of the file',
        '  content (start):',
        '    token: [redacted]',
        '    next^[[2J line',
        '    ✂ cut here: the rest of the text is not shown',
      ].join('\n'),
    );
    expect(text).toContain('part of this target was redacted');
    expect(text).not.toContain('\x1b');
  });

  it('says a whole write replaces the file, with no cut marker when nothing was cut', () => {
    const text = renderPrompt({
      toolId: 'write_file',
      action: 'fs_write',
      preview: { path: 'a', writeMode: 'replace', byteCount: 1, content: 'x' },
    });

    expect(text).toContain('  write:   replace the whole file with 1 byte\n  content:\n    x\n');
    expect(text).not.toContain('cut here');
    expect(text).not.toContain('redacted');
  });

  it('names an MCP call by server and tool, printed inert', () => {
    const text = renderPrompt({
      toolId: 'mcp_call',
      action: 'egress',
      preview: { server: 'tickets', tool: 'close\x1b[2K_all' },
    });

    expect(text).toContain('  server:  tickets\n  tool:    close^[[2K_all\n');
  });

  it('shows at most a screenful of a write, then the cut marker', () => {
    const text = renderPrompt({
      toolId: 'write_file',
      action: 'fs_write',
      preview: {
        path: 'a',
        writeMode: 'replace',
        byteCount: 2000,
        content: '\n'.repeat(1999) + 'x',
      },
    });

    expect(text.split('\n').length).toBeLessThan(50);
    expect(text).toContain('  content (start):\n');
    expect(text).toContain('    ✂ cut here: the rest of the text is not shown\nAllow?');
  });
});
