import { describe, expect, it } from 'vitest';

import { MAX_REQUEST_HEAD_BYTES, scanProxyRequest } from './egress-proxy-head.js';

const scan = (text: string): ReturnType<typeof scanProxyRequest> =>
  scanProxyRequest(Buffer.from(text, 'latin1'));

const CONNECT = 'CONNECT egress.test:443 HTTP/1.1\r\nHost: egress.test:443\r\n\r\n';

describe('scanProxyRequest', () => {
  it('reads the target of a CONNECT request', () => {
    expect(scan(CONNECT)).toEqual({
      kind: 'connect',
      host: 'egress.test',
      port: 443,
      headLength: CONNECT.length,
    });
  });

  it('points past the head at tunnel bytes sent with it', () => {
    const result = scan(`${CONNECT}\x16\x03\x01`);

    expect(result).toMatchObject({ kind: 'connect', headLength: CONNECT.length });
  });

  it.each([
    [
      'a curl-style head',
      'CONNECT egress.test:8443 HTTP/1.1\r\nHost: egress.test:8443\r\nUser-Agent: curl/8.5.0\r\nProxy-Connection: Keep-Alive\r\n\r\n',
      'egress.test',
      8443,
    ],
    ['no headers at all', 'CONNECT egress.test:443 HTTP/1.1\r\n\r\n', 'egress.test', 443],
    [
      'HTTP/1.0, as older Python sends',
      'CONNECT egress.test:443 HTTP/1.0\r\n\r\n',
      'egress.test',
      443,
    ],
    ['an uppercase host', 'CONNECT EGRESS.Test:443 HTTP/1.1\r\n\r\n', 'egress.test', 443],
    ['a trailing dot', 'CONNECT egress.test.:443 HTTP/1.1\r\n\r\n', 'egress.test', 443],
    ['an IPv4 literal', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\n\r\n', '127.0.0.1', 443],
    ['an IPv4 in hex', 'CONNECT 0x7f.1:443 HTTP/1.1\r\n\r\n', '127.0.0.1', 443],
    ['a bracketed IPv6 literal', 'CONNECT [::1]:443 HTTP/1.1\r\n\r\n', '[::1]', 443],
    [
      'a Content-Length of zero',
      'CONNECT egress.test:443 HTTP/1.1\r\nContent-Length: 0\r\n\r\n',
      'egress.test',
      443,
    ],
    [
      'a header value with tabs',
      'CONNECT egress.test:443 HTTP/1.1\r\nX-A:\tb\t\r\n\r\n',
      'egress.test',
      443,
    ],
  ])('accepts %s', (_case, text, host, port) => {
    expect(scan(text)).toMatchObject({ kind: 'connect', host, port });
  });

  it.each([
    ['nothing', ''],
    ['a request line without its end', 'CONNECT egress.test:443 HTTP/1.1'],
    ['a head without its blank line', 'CONNECT egress.test:443 HTTP/1.1\r\nHost: x\r\n'],
    ['a head ending in CR', 'CONNECT egress.test:443 HTTP/1.1\r\n\r'],
  ])('waits on %s', (_case, text) => {
    expect(scan(text)).toEqual({ kind: 'incomplete' });
  });

  it.each([
    ['bare LF line ends', 'CONNECT egress.test:443 HTTP/1.1\n\n'],
    ['a bare LF in a header', 'CONNECT egress.test:443 HTTP/1.1\r\nA: b\nC: d\r\n\r\n'],
    ['a bare CR', 'CONNECT egress.test:443 HTTP/1.1\rHost: x\r\n\r\n'],
    ['an empty line first', '\r\nCONNECT egress.test:443 HTTP/1.1\r\n\r\n'],
    ['obs-fold', 'CONNECT egress.test:443 HTTP/1.1\r\nA: b\r\n c\r\n\r\n'],
    ['a space before the colon', 'CONNECT egress.test:443 HTTP/1.1\r\nHost : x\r\n\r\n'],
    ['a header without a colon', 'CONNECT egress.test:443 HTTP/1.1\r\nHost\r\n\r\n'],
    ['a NUL byte', 'CONNECT egress.test:443 HTTP/1.1\r\nA: b\x00\r\n\r\n'],
    ['a DEL byte', 'CONNECT egress.test:443 HTTP/1.1\r\nA: \x7f\r\n\r\n'],
    ['a non-ASCII host', 'CONNECT b\xfccher.test:443 HTTP/1.1\r\n\r\n'],
    ['a percent-encoded host', 'CONNECT egress%2etest:443 HTTP/1.1\r\n\r\n'],
    ['userinfo', 'CONNECT user@egress.test:443 HTTP/1.1\r\n\r\n'],
    ['no port', 'CONNECT egress.test HTTP/1.1\r\n\r\n'],
    ['an empty port', 'CONNECT egress.test: HTTP/1.1\r\n\r\n'],
    ['port 0', 'CONNECT egress.test:0 HTTP/1.1\r\n\r\n'],
    ['port 65536', 'CONNECT egress.test:65536 HTTP/1.1\r\n\r\n'],
    ['a six-digit port', 'CONNECT egress.test:000443 HTTP/1.1\r\n\r\n'],
    ['a signed port', 'CONNECT egress.test:+443 HTTP/1.1\r\n\r\n'],
    ['a path after the authority', 'CONNECT egress.test:443/x HTTP/1.1\r\n\r\n'],
    ['an unbracketed IPv6 literal', 'CONNECT ::1:443 HTTP/1.1\r\n\r\n'],
    ['an IPv6 zone', 'CONNECT [fe80::1%25eth0]:443 HTTP/1.1\r\n\r\n'],
    ['an empty host', 'CONNECT :443 HTTP/1.1\r\n\r\n'],
    ['a lowercase method', 'connect egress.test:443 HTTP/1.1\r\n\r\n'],
    ['two spaces', 'CONNECT  egress.test:443 HTTP/1.1\r\n\r\n'],
    ['a trailing space', 'CONNECT egress.test:443 HTTP/1.1 \r\n\r\n'],
    ['HTTP/2.0', 'CONNECT egress.test:443 HTTP/2.0\r\n\r\n'],
    ['no version', 'CONNECT egress.test:443\r\n\r\n'],
    ['Transfer-Encoding', 'CONNECT egress.test:443 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['a body length', 'CONNECT egress.test:443 HTTP/1.1\r\nContent-Length: 5\r\n\r\n'],
    ['an origin-form GET', 'GET / HTTP/1.1\r\nHost: egress.test\r\n\r\n'],
    ['an asterisk OPTIONS', 'OPTIONS * HTTP/1.1\r\n\r\n'],
    ['TLS bytes', '\x16\x03\x01\x00\x05\r\n\r\n'],
    ['too many header lines', `CONNECT egress.test:443 HTTP/1.1\r\n${'A: b\r\n'.repeat(101)}\r\n`],
  ])('refuses %s as a bad request', (_case, text) => {
    expect(scan(text)).toEqual({ kind: 'bad_request' });
  });

  it('accepts a head of exactly the cap', () => {
    const filler = 'X: '.padEnd(
      MAX_REQUEST_HEAD_BYTES - 'CONNECT egress.test:443 HTTP/1.1\r\n'.length - 4,
      'a',
    );
    const text = `CONNECT egress.test:443 HTTP/1.1\r\n${filler}\r\n\r\n`;

    expect(text.length).toBe(MAX_REQUEST_HEAD_BYTES);
    expect(scan(text)).toMatchObject({ kind: 'connect' });
  });

  it('refuses a head one byte over the cap without waiting for its end', () => {
    const text = `CONNECT egress.test:443 HTTP/1.1\r\nX: ${'a'.repeat(MAX_REQUEST_HEAD_BYTES)}`;

    expect(scan(text.slice(0, MAX_REQUEST_HEAD_BYTES - 1))).toEqual({ kind: 'incomplete' });
    expect(scan(text.slice(0, MAX_REQUEST_HEAD_BYTES))).toEqual({ kind: 'bad_request' });
  });

  it.each([
    [
      'plain HTTP',
      'GET http://egress.test/ HTTP/1.1\r\nHost: egress.test\r\n\r\n',
      'egress.test',
      80,
    ],
    [
      'plain HTTP on a port',
      'POST http://Egress.Test:8080/x?y HTTP/1.1\r\n\r\n',
      'egress.test',
      8080,
    ],
    ['https in absolute form', 'GET https://egress.test/ HTTP/1.1\r\n\r\n', 'egress.test', 443],
    [
      'credentials in the URL',
      'GET http://user:secret@egress.test/ HTTP/1.1\r\n\r\n',
      'egress.test',
      80,
    ],
  ])('refuses %s as insecure, naming only host and port', (_case, text, host, port) => {
    expect(scan(text)).toEqual({ kind: 'insecure_url', host, port });
  });

  it('refuses an unparseable absolute-form URL without naming a host', () => {
    expect(scan('GET http://[zz]/ HTTP/1.1\r\n\r\n')).toEqual({ kind: 'insecure_url' });
  });
});
