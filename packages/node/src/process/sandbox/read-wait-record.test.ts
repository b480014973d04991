import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { collectWaitRecord, parseWaitRecord } from './read-wait-record.js';

describe('parseWaitRecord', () => {
  it.each([
    ['exit 0\n', { exitCode: 0, exitSignal: null }],
    ['exit 137\n', { exitCode: 137, exitSignal: null }],
    ['exit 255\n', { exitCode: 255, exitSignal: null }],
    ['signal 9\n', { exitCode: null, exitSignal: 'SIGKILL' }],
    ['signal 11\n', { exitCode: null, exitSignal: 'SIGSEGV' }],
  ])('reads %j', (text, record) => {
    expect(parseWaitRecord(text)).toEqual(record);
  });

  it.each([
    ['nothing', ''],
    ['no newline', 'exit 1'],
    ['two records', 'exit 0\nexit 1\n'],
    ['a code past 255', 'exit 256\n'],
    ['a leading zero', 'exit 01\n'],
    ['a sign', 'exit -1\n'],
    ['signal 0', 'signal 0\n'],
    ['a signal Node cannot name', 'signal 40\n'],
    ['another word', 'status 0\n'],
    ['trailing bytes', 'exit 0\n\0'],
  ])('reads %s as no record', (_case, text) => {
    expect(parseWaitRecord(text)).toBeUndefined();
  });
});

describe('collectWaitRecord', () => {
  it('reads a record written in pieces', async () => {
    const stream = new PassThrough();
    const read = collectWaitRecord(stream);

    stream.write('sig');
    stream.end('nal 15\n');
    await new Promise((resolve) => stream.once('end', resolve));

    expect(read()).toEqual({ exitCode: null, exitSignal: 'SIGTERM' });
  });

  it('reads a flood as unknown, not as its first record', async () => {
    const stream = new PassThrough();
    const read = collectWaitRecord(stream);

    stream.end(`exit 0\n${'x'.repeat(64)}`);
    await new Promise((resolve) => stream.once('end', resolve));

    expect(read()).toBe('unknown');
  });
});
