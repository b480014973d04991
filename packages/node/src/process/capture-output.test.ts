import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureOutput } from './capture-output.js';
import { createSpillOpener } from './create-spill-opener.js';

describe('captureOutput', () => {
  let directory = '';
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'toolhost-capture-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('keeps a stream under the limit whole', async () => {
    const captured = await captureOutput(
      Readable.from([Buffer.from('hello '), Buffer.from('world')]),
      {
        limitBytes: 1024,
        stream: 'stdout',
      },
    );

    expect(captured).toEqual({ text: 'hello world' });
  });

  it('keeps head and tail of an overflowing stream and spills all of it', async () => {
    const chunks = Array.from({ length: 100 }, (_, index) =>
      Buffer.from(`line ${index}\n`.padEnd(100, '.')),
    );

    const captured = await captureOutput(Readable.from(chunks), {
      limitBytes: 2000,
      stream: 'stdout',
      openSpill: createSpillOpener(directory),
    });

    expect(captured.text.startsWith('line 0\n')).toBe(true);
    expect(captured.text).toContain('line 99\n');
    expect(captured.text).not.toContain('line 50\n');
    expect(captured.truncated).toMatchObject({ byteLength: 10_000 });
    const ref = (captured.truncated as { ref: string }).ref;
    expect(captured.text).toContain(`full output at ${ref}`);
    expect(await readFile(ref)).toEqual(Buffer.concat(chunks));
  });

  it('loses nothing that arrives while the spill is still opening', async () => {
    const chunks = Array.from({ length: 500 }, (_, index) =>
      Buffer.from(`${index}`.padEnd(64, '.')),
    );
    const open = createSpillOpener(directory);
    const slowOpen: typeof open = async (stream) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return open(stream);
    };

    const captured = await captureOutput(Readable.from(chunks), {
      limitBytes: 1024,
      stream: 'stdout',
      openSpill: slowOpen,
    });

    const ref = (captured.truncated as { ref: string }).ref;
    expect(await readFile(ref)).toEqual(Buffer.concat(chunks));
  });

  it('says the output is unavailable when there is no spill', async () => {
    const captured = await captureOutput(Readable.from([Buffer.alloc(5000, 0x61)]), {
      limitBytes: 1024,
      stream: 'stderr',
    });

    expect(captured.truncated).toEqual({ byteLength: 5000 });
    expect(captured.text).toContain('full output unavailable');
    expect(Buffer.byteLength(captured.text)).toBeLessThan(1200);
  });

  it('cuts on code-point boundaries', async () => {
    const text = '€'.repeat(2000);

    const captured = await captureOutput(Readable.from([Buffer.from(text)]), {
      limitBytes: 1000,
      stream: 'stdout',
    });

    expect(captured.text).not.toContain('\uFFFD');
    expect(captured.text.startsWith('€€')).toBe(true);
    expect(captured.text.endsWith('€€')).toBe(true);
  });
});
