import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createToolRegistry,
  type ToolDispatchContext,
  type ToolHost,
  type ToolResultLimits,
} from '@toolhost/core';
import { attachUtf8Source, boundForModel } from '@toolhost/core/bound';
import type { SpillPart, ToolOutputStore } from '@toolhost/core/host';
import { readFileTool } from '@toolhost/core/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../fs/test-support/sandbox.js';
import type { NodeOutputStore } from './create-output-store.js';

// The old spill, verbatim in effect: the joined text encoded once and written to a new 0600 file,
// named as long as the store's names so both previews are cut at the same places.
function legacyStore(directory: string): ToolOutputStore & { texts: string[] } {
  let sequence = 900_000;
  const texts: string[] = [];
  return {
    texts,
    async spill(text) {
      texts.push(text);
      sequence += 1;
      const ref = path.join(directory, `${sequence}-${randomBytes(4).toString('hex')}.txt`);
      const bytes = Buffer.from(text, 'utf8');
      await writeFile(ref, bytes, { flag: 'wx', mode: 0o600 });
      return { ref, byteLength: bytes.byteLength };
    },
  };
}

// The preview with its spill's path as a placeholder: the two stores' files differ only in name.
function sameRef(value: unknown, ref: string | undefined): string {
  return JSON.stringify(value).replaceAll(ref ?? '\0', '<ref>');
}

const KIB = 1024;
const LIMITS: ToolResultLimits = { maxBytes: 2 * KIB, maxLines: 40 };
const CONTEXT: ToolDispatchContext = {
  nodeId: 'n',
  grantedToolIds: new Set(['read_file']),
  config: {},
  toolPolicy: {},
  fsScope: 'sandboxed',
  gateApproved: false,
  limits: LIMITS,
};

const ascii = (bytes: number): Buffer => Buffer.from(`${'a'.repeat(99)}\n`.repeat(bytes / 100));
const CORPUS: Record<string, Buffer> = {
  ascii: ascii(20_000),
  'ascii below the kept-bytes size': ascii(4_000),
  multibyte: Buffer.from('é日本語🙂 text\n'.repeat(1_500)),
  crlf: Buffer.from('a line\r\n'.repeat(3_000)),
  'byte order mark': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), ascii(20_000)]),
  // Lone continuation, overlong, an encoded surrogate, a truncated sequence: decoded with U+FFFD.
  'invalid UTF-8': Buffer.concat([
    ascii(20_000),
    Buffer.from([0x80, 0x0a, 0xc0, 0xaf, 0x0a, 0xed, 0xa0, 0x80, 0x0a, 0xff, 0xe6, 0x97]),
  ]),
  'forged section headers': Buffer.from('===== content =====\n====== x ======\n'.repeat(1_000)),
  'one long line': Buffer.from('z'.repeat(40_000)),
  // The inline-media backstop replaces the data: URL: the spill must hold the marker, not it.
  'inline media': Buffer.from(
    `before\ndata:image/png;base64,${'QUJD'.repeat(8_000)}\nafter\n${'b'.repeat(20_000)}`,
  ),
};

describe('read_file spill: parts and file bytes vs the joined text', () => {
  let box: Sandbox;
  let legacy: ReturnType<typeof legacyStore>;
  beforeEach(async () => {
    box = await createSandbox({ spillQuota: { maxBytesPerRun: 64 * KIB * KIB } });
    legacy = legacyStore((box.host.outputStore as NodeOutputStore).directory);
  });
  afterEach(() => box.close());

  const read = (host: ToolHost, file: string, limits: ToolResultLimits = LIMITS) =>
    createToolRegistry({ tools: [readFileTool], host }).dispatch(
      { id: 'c', name: 'read_file', args: { path: file } },
      { ...CONTEXT, limits },
    );
  const legacyHost = (): ToolHost => ({ ...box.host, outputStore: legacy });

  for (const [name, bytes] of Object.entries(CORPUS)) {
    it(`writes the same spill file for ${name}`, async () => {
      await writeFile(path.join(box.root, 'f.txt'), bytes);
      const store = box.host.outputStore as NodeOutputStore;
      const before = store.quota.callBudget().remaining();

      const now = await read(box.host, 'f.txt');
      const old = await read(legacyHost(), 'f.txt');

      expect(now.spill).toBeDefined();
      const ref = now.spill?.ref ?? '';
      const written = await readFile(ref);
      expect(written.equals(await readFile(old.spill?.ref ?? ''))).toBe(true);
      expect(now.spill?.byteLength).toBe(old.spill?.byteLength);
      expect(written.byteLength).toBe(Buffer.byteLength(legacy.texts[0] ?? ''));
      expect(sameRef(now.toolResult, now.spill?.ref)).toEqual(
        sameRef(old.toolResult, old.spill?.ref),
      );
      expect(path.dirname(ref)).toBe(store.directory);
      expect((await stat(ref)).mode & 0o777).toBe(0o600);
      // Quota is charged in bytes, exactly the file's.
      expect(before - store.quota.callBudget().remaining()).toBe(written.byteLength);
    });
  }

  it('pages the spill by the original lines, as before', async () => {
    await writeFile(path.join(box.root, 'f.txt'), CORPUS.multibyte ?? '');
    const now = await read(box.host, 'f.txt');
    const ref = path.relative(box.root, now.spill?.ref ?? '');
    const page = await box.fs.readFile({ path: ref, offset: 3, limit: 2 });
    expect(page.content).toBe('é日本語🙂 text\né日本語🙂 text\n');
  });

  it('spills neither way for an empty file, and only past the ceiling exactly', async () => {
    await writeFile(path.join(box.root, 'empty.txt'), '');
    expect((await read(box.host, 'empty.txt')).spill).toBeUndefined();

    await writeFile(path.join(box.root, 'f.txt'), CORPUS.multibyte ?? '');
    const full = (await read(legacyHost(), 'f.txt')).spill?.byteLength ?? 0;
    const at = { maxBytes: full, maxLines: 1_000_000 };
    expect((await read(box.host, 'f.txt', at)).spill).toBeUndefined();
    expect((await read(legacyHost(), 'f.txt', at)).spill).toBeUndefined();
    const under = { maxBytes: full - 1, maxLines: 1_000_000 };
    const now = await read(box.host, 'f.txt', under);
    const old = await read(legacyHost(), 'f.txt', under);
    expect(now.spill?.byteLength).toBe(full);
    expect(
      (await readFile(now.spill?.ref ?? '')).equals(await readFile(old.spill?.ref ?? '')),
    ).toBe(true);
  });

  it('hands the store the file bytes themselves, not a re-encoding', async () => {
    await writeFile(path.join(box.root, 'f.txt'), CORPUS.ascii ?? '');
    const store = box.host.outputStore as Required<ToolOutputStore>;
    const seen: SpillPart[][] = [];
    const spy: ToolOutputStore = {
      spill: store.spill,
      runCall: store.runCall,
      spillParts: (parts, limits, signal) => {
        seen.push([...parts]);
        return store.spillParts(parts, limits, signal);
      },
    };

    await read({ ...box.host, outputStore: spy }, 'f.txt');

    const bytes = seen[0]?.find((part) => part instanceof Uint8Array);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes ?? new Uint8Array()).equals(CORPUS.ascii ?? Buffer.alloc(0))).toBe(
      true,
    );
  });

  it('writes lone surrogates and a mismatched source as the joined text would', async () => {
    const lone = `x\uD800\n${'y'.repeat(3_000)}\uDBFF\n\uDC00z`;
    const cases: object[] = [
      { content: lone, note: 'tail \uDFFF' },
      { stdout: `\uDC00${'s'.repeat(3_000)}`, stderr: `e\n${'\uD83D'.repeat(500)}` },
      // Bytes that are not the body's UTF-8 are never written in its place.
      attachUtf8Source(
        { content: 'c'.repeat(5_000) },
        { text: 'd'.repeat(5_000), bytes: () => Buffer.from('d'.repeat(5_000)) },
      ),
    ];
    for (const value of cases) {
      const now = await boundForModel(value, { store: box.host.outputStore, limits: LIMITS });
      const old = await boundForModel(value, { store: legacy, limits: LIMITS });
      const written = await readFile(now.spill?.ref ?? '');
      expect(written.equals(await readFile(old.spill?.ref ?? ''))).toBe(true);
      expect(sameRef(now.result, now.spill?.ref)).toEqual(sameRef(old.result, old.spill?.ref));
    }
  });
});
