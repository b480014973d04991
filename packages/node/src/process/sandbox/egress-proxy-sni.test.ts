import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';

import { beforeAll, describe, expect, it } from 'vitest';

import { MAX_CLIENT_HELLO_BYTES, scanClientHello, serverNameMatches } from './egress-proxy-sni.js';

/** The first flight Node's own TLS client writes, captured without any socket. */
async function captureClientHello(servername: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const transport = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        resolve(chunk);
        callback();
        // The handshake goes no further: destroying the client ends it.
        setImmediate(() => client.destroy());
      },
    });
    const client = tlsConnect({ socket: transport, servername });
    client.on('error', () => undefined);
  });
}

const u8 = (value: number): Buffer => Buffer.from([value]);
const u16 = (value: number): Buffer => Buffer.from([value >> 8, value & 0xff]);
const u24 = (value: number): Buffer =>
  Buffer.from([value >> 16, (value >> 8) & 0xff, value & 0xff]);
const vector = (prefix: 1 | 2, body: Uint8Array): Buffer =>
  Buffer.concat([prefix === 1 ? u8(body.length) : u16(body.length), body]);

const extension = (type: number, data: Uint8Array): Buffer =>
  Buffer.concat([u16(type), vector(2, data)]);
const nameEntry = (name: string, type = 0): Buffer =>
  Buffer.concat([u8(type), vector(2, Buffer.from(name, 'latin1'))]);
const serverName = (...entries: Buffer[]): Buffer =>
  extension(0, vector(2, Buffer.concat(entries)));
const ALPN = extension(16, vector(2, Buffer.concat([vector(1, Buffer.from('h2'))])));

interface HelloParts {
  readonly extensions?: readonly Buffer[] | undefined;
  readonly cipherSuites?: Buffer;
  readonly trailing?: Buffer;
}

/** A hand-built ClientHello body: TLS 1.2 layout, one suite, null compression. */
function helloBody({ extensions, cipherSuites = u16(0x1301), trailing }: HelloParts = {}): Buffer {
  return Buffer.concat([
    u16(0x0303),
    Buffer.alloc(32, 7),
    vector(1, Buffer.alloc(32, 9)),
    vector(2, cipherSuites),
    vector(1, u8(0)),
    ...(extensions === undefined ? [] : [vector(2, Buffer.concat(extensions))]),
    ...(trailing === undefined ? [] : [trailing]),
  ]);
}

const handshake = (body: Buffer, type = 1): Buffer =>
  Buffer.concat([u8(type), u24(body.length), body]);

/** Frames `payload` as handshake records of the given fragment sizes (the rest in the last). */
function records(payload: Buffer, ...sizes: number[]): Buffer {
  const framed: Buffer[] = [];
  let offset = 0;
  for (const size of [...sizes, payload.length]) {
    if (offset >= payload.length) break;
    const fragment = payload.subarray(offset, Math.min(offset + size, payload.length));
    framed.push(Buffer.concat([u8(22), u16(0x0301), u16(fragment.length), fragment]));
    offset += fragment.length;
  }
  return Buffer.concat(framed);
}

const hello = (parts: HelloParts = {}): Buffer => records(handshake(helloBody(parts)));

describe('scanClientHello', () => {
  let real: Buffer;
  beforeAll(async () => {
    real = await captureClientHello('egress.test');
  });

  it('reads the SNI of a ClientHello written by a real TLS client', () => {
    const scan = scanClientHello(real);

    expect(scan).toEqual({ kind: 'client_hello', serverNames: ['egress.test'] });
  });

  it('says incomplete at every cut of a ClientHello arriving over several writes', () => {
    const verdicts = new Set<string>();
    for (let cut = 0; cut < real.length; cut += 1) {
      verdicts.add(scanClientHello(real.subarray(0, cut)).kind);
    }

    expect([...verdicts]).toEqual(['incomplete']);
    expect(scanClientHello(real).kind).toBe('client_hello');
  });

  it('reassembles a ClientHello fragmented over several records', () => {
    const body = real.subarray(5);

    const scan = scanClientHello(records(body, 3, 40, 100));

    expect(scan).toEqual({ kind: 'client_hello', serverNames: ['egress.test'] });
  });

  it('refuses a ClientHello fragmented over more than four records', () => {
    const scan = scanClientHello(records(real.subarray(5), 10, 10, 10, 10));

    expect(scan.kind).toBe('not_tls');
  });

  it('ignores records after the ClientHello (they are forwarded, not judged)', () => {
    const changeCipherSpec = Buffer.from([20, 3, 3, 0, 1, 1]);

    const scan = scanClientHello(Buffer.concat([real, changeCipherSpec]));

    expect(scan).toEqual({ kind: 'client_hello', serverNames: ['egress.test'] });
  });

  it('reports no server name when the client sends none', async () => {
    const withoutSni = await captureClientHello('');

    const scan = scanClientHello(withoutSni);

    expect(scan).toEqual({ kind: 'client_hello', serverNames: [] });
  });

  it('reads a hello without any extensions block as naming nothing', () => {
    expect(scanClientHello(hello())).toEqual({ kind: 'client_hello', serverNames: [] });
  });

  it('returns every host_name entry, so two names can be refused', () => {
    const scan = scanClientHello(
      hello({ extensions: [serverName(nameEntry('egress.test'), nameEntry('evil.test'))] }),
    );

    expect(scan).toEqual({ kind: 'client_hello', serverNames: ['egress.test', 'evil.test'] });
  });

  it('finds the SNI among other extensions', () => {
    const scan = scanClientHello(
      hello({ extensions: [ALPN, serverName(nameEntry('egress.test'))] }),
    );

    expect(scan).toEqual({ kind: 'client_hello', serverNames: ['egress.test'] });
  });

  it.each([
    ['nothing yet', Buffer.alloc(0)],
    ['only the content type', Buffer.from([22])],
    ['a record header without its body', Buffer.from([22, 3, 1, 0, 200])],
    ['half a record', hello().subarray(0, 30)],
    [
      'half a handshake header in its own record',
      records(handshake(helloBody()), 2).subarray(0, 7),
    ],
    [
      'a handshake longer than the records so far',
      records(Buffer.concat([u8(1), u24(helloBody().length + 10), helloBody()])),
    ],
  ])('waits on %s', (_case, bytes) => {
    expect(scanClientHello(bytes).kind).toBe('incomplete');
  });

  it.each([
    ['plain HTTP', Buffer.from('GET / HTTP/1.1\r\nHost: egress.test\r\n\r\n')],
    ['one byte of plain text', Buffer.from('G')],
    ['random garbage', Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x01])],
    [
      'an SSLv2-style hello',
      Buffer.from([0x80, 0x2e, 0x01, 0x03, 0x01, 0x00, 0x15, 0, 0, 0, 0x10]),
    ],
    ['an application-data record', Buffer.from([23, 3, 3, 0, 5, 1, 2, 3, 4, 5])],
    ['a record with major version 2', Buffer.from([22, 2, 0, 0, 5, 1, 0, 0, 1, 0])],
    ['a zero-length record', Buffer.from([22, 3, 1, 0, 0])],
    ['a record longer than 2^14', Buffer.from([22, 3, 1, 0x40, 0x01])],
    ['a ServerHello', records(handshake(helloBody(), 2))],
    [
      'a hello announcing more than the buffer cap',
      Buffer.concat([Buffer.from([22, 3, 1, 0, 4]), u8(1), u24(MAX_CLIENT_HELLO_BYTES)]),
    ],
    [
      'bytes after the hello in its record',
      records(Buffer.concat([handshake(helloBody()), u8(0)])),
    ],
    ['an odd cipher-suite list', hello({ cipherSuites: Buffer.from([0x13, 0x01, 0x13]) })],
    ['an empty cipher-suite list', hello({ cipherSuites: Buffer.alloc(0) })],
    ['a truncated extensions length', hello({ trailing: u8(0) })],
    [
      'an extension length that overruns the block',
      hello({ extensions: [Buffer.concat([u16(0), u16(50), Buffer.alloc(4)])] }),
    ],
    [
      'a server_name list longer than its extension',
      hello({ extensions: [extension(0, Buffer.concat([u16(40), nameEntry('egress.test')]))] }),
    ],
    [
      'a server_name list shorter than its extension',
      hello({
        extensions: [extension(0, Buffer.concat([vector(2, nameEntry('egress.test')), u8(0)]))],
      }),
    ],
    [
      'a host name longer than its list',
      hello({
        extensions: [extension(0, vector(2, Buffer.concat([u8(0), u16(99), Buffer.from('a.b')])))],
      }),
    ],
    ['an empty server_name extension', hello({ extensions: [extension(0, Buffer.alloc(0))] })],
    ['an empty server name list', hello({ extensions: [serverName()] })],
    ['an empty host name', hello({ extensions: [serverName(nameEntry(''))] })],
    ['an unknown name type', hello({ extensions: [serverName(nameEntry('egress.test', 1))] })],
    [
      'two server_name extensions',
      hello({
        extensions: [serverName(nameEntry('egress.test')), serverName(nameEntry('evil.test'))],
      }),
    ],
  ])('refuses %s as not TLS', (_case, bytes) => {
    expect(scanClientHello(bytes).kind).toBe('not_tls');
  });

  it('does not read past a hello cut inside its extensions', () => {
    const full = handshake(helloBody({ extensions: [serverName(nameEntry('egress.test'))] }));
    // The handshake header keeps claiming the full length; the record ends early.
    const cut = full.subarray(0, full.length - 4);

    const scan = scanClientHello(records(cut));

    expect(scan.kind).toBe('incomplete');
  });
});

describe('serverNameMatches', () => {
  it.each([
    ['the same name', ['egress.test'], true],
    ['uppercase', ['EGRESS.Test'], true],
    ['a trailing dot', ['egress.test.'], true],
    ['another name', ['evil.test'], false],
    ['a name with the host as prefix', ['egress.test.evil.test'], false],
    ['a subdomain', ['api.egress.test'], false],
    ['no name', [], false],
    ['two names, one right', ['egress.test', 'evil.test'], false],
    ['the right name twice', ['egress.test', 'egress.test'], false],
    ['a percent escape', ['egress%2etest'], false],
    ['a raw non-ASCII byte', ['egress\u00e9.test'], false],
    ['a NUL byte', ['egress.test\u0000.evil'], false],
  ])('%s → %s', (_case, names, expected) => {
    expect(serverNameMatches(names, 'egress.test')).toBe(expected);
  });

  it('matches an IDN only in its punycode form', () => {
    expect(serverNameMatches(['xn--bcher-kva.test'], 'xn--bcher-kva.test')).toBe(true);
    expect(serverNameMatches(['bücher.test'], 'xn--bcher-kva.test')).toBe(false);
  });
});
