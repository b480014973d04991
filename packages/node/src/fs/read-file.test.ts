import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_GLOB_MATCHES } from './glob-read.js';
import { BINARY_SNIFF_BYTES, MAX_READ_BYTES } from './read-file.js';
import { createSandbox } from './test-support/sandbox.js';
import type { Sandbox } from './test-support/sandbox.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
let box: Sandbox;
const LIMITS = { maxBytes: 1, maxLines: 1 };

beforeAll(async () => {
  box = await createSandbox({}, async ({ root }) => {
    await writeFile(path.join(root, 'image.png'), PNG);
    await writeFile(
      path.join(root, 'late-nul.txt'),
      Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.from([0])]),
    );
    await writeFile(path.join(root, 'lines.txt'), 'zero\none\ntwo\nthree\n');
    await writeFile(path.join(root, 'too-large.txt'), Buffer.alloc(MAX_READ_BYTES + 1, 0x61));
    await writeFile(path.join(root, 'huge-lines.txt'), 'line\n'.repeat(2_000_000));
    // A text head, then a 64 GiB hole of NULs with no newline: a paged read's worst case.
    await writeFile(path.join(root, 'sparse.txt'), Buffer.alloc(BINARY_SNIFF_BYTES, 0x61));
    expect(spawnSync('truncate', ['-s', '64G', path.join(root, 'sparse.txt')]).status).toBe(0);
    // Text lines, then the same hole: a window that ends early, and a count that cannot.
    await writeFile(path.join(root, 'sparse-lines.txt'), 'a\n'.repeat(BINARY_SNIFF_BYTES / 2));
    expect(spawnSync('truncate', ['-s', '64G', path.join(root, 'sparse-lines.txt')]).status).toBe(
      0,
    );
    await writeFile(path.join(root, 'unterminated.txt'), 'zero\none');
    await mkdir(path.join(root, 'docs/deep'), { recursive: true });
    await writeFile(path.join(root, 'docs/a.md'), 'A');
    await writeFile(path.join(root, 'docs/deep/b.md'), 'B');
    await writeFile(path.join(root, 'docs/.env.md'), 'FAKE-SECRET');
    await writeFile(path.join(root, 'docs/blob.md'), PNG);
    await mkdir(path.join(root, 'many'));
    for (let index = 0; index < MAX_GLOB_MATCHES + 5; index += 1)
      await writeFile(path.join(root, 'many', `${String(index).padStart(3, '0')}.txt`), `${index}`);
  });
});
afterAll(() => box.close());

describe('read_file', () => {
  it('stores a binary file in the media store under the request scope', async () => {
    const read = await box.fs.readFile({ path: 'image.png', mediaScope: 'run:1' });

    expect(read).toMatchObject({ content: '', mimeType: 'image/png', sizeBytes: PNG.length });
    expect(read.media?.handle).toMatch(/^media:\/\/sha256-[0-9a-f]{64}$/);
    expect(await box.host.media?.stat(read.media?.handle ?? '')).toMatchObject({
      allowedScopes: ['run:1'],
    });
    expect(
      Buffer.from(
        (await box.host.media?.read(read.media?.handle ?? '', { start: 0, end: 3 })) ?? [],
      ),
    ).toEqual(PNG.subarray(0, 4));
  });

  it('sniffs only the first 8192 bytes', async () => {
    const read = await box.fs.readFile({ path: 'late-nul.txt' });

    expect(read.media).toBeUndefined();
    expect(read.mimeType).toBe('text/plain');
  });

  it('stops a paged read of a huge sparse file at its scan budget', async () => {
    const attempt = box.fs.readFile({ path: 'sparse.txt', offset: 1, limit: 1 });

    await expect(attempt).rejects.toMatchObject({ code: 'tool_failed', reason: 'too_large' });
  });

  it('stops scanning (and closes the file) when the call is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);

    const attempt = box.fs.readFile({ path: 'sparse.txt', offset: 1, limit: 1 }, controller.signal);

    await expect(attempt).rejects.toMatchObject({ code: 'cancelled' });
    // The answer may come first; the scan itself must end within a chunk, not after 64 GiB.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const open = readdirSync('/proc/self/fd').map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(open.filter((target) => target.endsWith('sparse.txt'))).toEqual([]);
  });

  it('pages by line with offset and limit', async () => {
    const read = await box.fs.readFile({ path: 'lines.txt', offset: 1, limit: 2 });

    expect(read.content).toBe('one\ntwo\n');
    expect(read.sizeBytes).toBe(19);
  });

  it('says how many lines the file has and whether more follow the window', async () => {
    const middle = await box.fs.readFile({ path: 'lines.txt', offset: 1, limit: 2 });
    const tail = await box.fs.readFile({ path: 'lines.txt', offset: 2, limit: 5 });
    const past = await box.fs.readFile({ path: 'lines.txt', offset: 9 });

    expect(middle).toMatchObject({ totalLines: 4, more: true });
    expect(tail).toMatchObject({ content: 'two\nthree\n', totalLines: 4, more: false });
    expect(past).toMatchObject({ content: '', totalLines: 4, more: false });
  });

  it('counts a last line without a newline', async () => {
    const read = await box.fs.readFile({ path: 'unterminated.txt', offset: 0, limit: 1 });

    expect(read).toMatchObject({ content: 'zero\n', totalLines: 2, more: true });
  });

  it('leaves the count out when the scan budget ends it, yet says more follow', async () => {
    const read = await box.fs.readFile({ path: 'sparse-lines.txt', offset: 0, limit: 1 });

    expect(read.content).toBe('a\n');
    expect(read.more).toBe(true);
    expect(read.totalLines).toBeUndefined();
  });

  it('pages a spilled result from its text, skipping a header with no fields', async () => {
    const spilled = await box.host.outputStore?.spill('{}\n===== content =====\nx\ny\n', LIMITS);

    const read = await box.fs.readFile({ path: spilled?.ref ?? '', offset: 0, limit: 1 });

    expect(read).toMatchObject({ content: 'x\n', totalLines: 2, more: true });
  });

  it('pages a spilled plain text from its first line', async () => {
    const spilled = await box.host.outputStore?.spill('plain\ntext\n', LIMITS);

    const read = await box.fs.readFile({ path: spilled?.ref ?? '', offset: 0, limit: 1 });

    expect(read).toMatchObject({ content: 'plain\n', totalLines: 2 });
  });

  it('reads a whole spill as it is, header included', async () => {
    const spilled = await box.host.outputStore?.spill('{}\n===== content =====\nx\n', LIMITS);

    const read = await box.fs.readFile({ path: spilled?.ref ?? '' });

    expect(read.content).toBe('{}\n===== content =====\nx\n');
    expect(read.totalLines).toBeUndefined();
  });

  it('refuses a file over the cap as too_large', async () => {
    await expect(box.fs.readFile({ path: 'too-large.txt' })).rejects.toMatchObject({
      reason: 'too_large',
      recoverable: true,
    });
  });

  it('still pages a file over the cap', async () => {
    const read = await box.fs.readFile({ path: 'huge-lines.txt', offset: 1_999_998, limit: 5 });

    expect(read).toMatchObject({ content: 'line\nline\n', totalLines: 2_000_000, more: false });
  });

  it('refuses a FIFO without hanging', async () => {
    const fifo = path.join(box.root, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);

    await expect(box.fs.readFile({ path: 'pipe' })).rejects.toMatchObject({
      reason: 'unsupported_file_type',
    });
  });
});

describe('read_file with glob', () => {
  it('reads every match as a section, omitting floor files and naming binaries', async () => {
    const read = await box.fs.readFile({ path: 'docs/**/*.md', glob: true });

    expect(read.content).toBe(
      '===== docs/a.md =====\nA\n===== docs/blob.md =====\n[skipped: binary]\n===== docs/deep/b.md =====\nB\n',
    );
    expect(read.matches).toEqual({ count: 3, truncated: false });
  });

  it('keeps * within one segment', async () => {
    const read = await box.fs.readFile({ path: 'docs/*.md', glob: true });

    expect(read.content).not.toContain('deep/b.md');
  });

  it('caps the matches and says so', async () => {
    const read = await box.fs.readFile({ path: 'many/*.txt', glob: true });

    expect(read.matches).toEqual({ count: MAX_GLOB_MATCHES, truncated: true });
  });

  it('refuses a glob whose base leaves the root', async () => {
    await expect(box.fs.readFile({ path: '../*', glob: true })).rejects.toMatchObject({
      reason: 'scope_escape',
    });
  });
});
