import { normalizeHost } from '@toolhost/core/policy';

/** The most bytes a request head may take, its final blank line included. */
export const MAX_REQUEST_HEAD_BYTES = 8 * 1024;

/** What the bytes a client sent the proxy first amount to. */
export type ProxyRequestScan =
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'bad_request' }
  /** A plain-HTTP proxy request (`GET http://host/`); host and port only when they parse. */
  | { readonly kind: 'insecure_url'; readonly host?: string; readonly port?: number }
  /** `host` is normalised; `headLength` is where tunnel bytes the client sent early begin. */
  | {
      readonly kind: 'connect';
      readonly host: string;
      readonly port: number;
      readonly headLength: number;
    };

const CR = 0x0d;
const LF = 0x0a;
const HTAB = 0x09;
const MAX_HEADER_LINES = 100;
// RFC 9110 §5.6.2 token; a method and a field name are nothing else.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const REQUEST_LINE = new RegExp(`^(${TOKEN}) ([\\x21-\\x7e]+) HTTP/1\\.([01])$`);
const HEADER_LINE = new RegExp(`^(${TOKEN}):[\\t\\x20-\\x7e]*$`);
// authority-form (RFC 9112 §3.2.3) with the port required. Only LDH names and bracketed IPv6:
// the WHATWG host parser behind normalizeHost would also decode `%2e` or Unicode into a name.
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})$/;
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

const DEFAULT_PORTS: ReadonlyMap<string, number> = new Map([
  ['http:', 80],
  ['https:', 443],
]);

const INCOMPLETE: ProxyRequestScan = { kind: 'incomplete' };
const BAD_REQUEST: ProxyRequestScan = { kind: 'bad_request' };

/**
 * Judges the bytes received so far. Only `CONNECT host:port HTTP/1.1` (or 1.0, which older
 * Python clients send) with well-formed CRLF header lines opens a tunnel; a head we would parse
 * differently from another HTTP parser is refused rather than interpreted.
 */
export function scanProxyRequest(bytes: Uint8Array): ProxyRequestScan {
  const headLength = findHeadEnd(bytes);
  if (headLength === undefined) {
    return bytes.length >= MAX_REQUEST_HEAD_BYTES ? BAD_REQUEST : INCOMPLETE;
  }
  if (headLength === 'malformed') return BAD_REQUEST;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, headLength - 4).toString('latin1');
  const [requestLine = '', ...headerLines] = text.split('\r\n');
  if (headerLines.length > MAX_HEADER_LINES) return BAD_REQUEST;
  if (!headerLines.every(isAcceptableHeader)) return BAD_REQUEST;

  const request = REQUEST_LINE.exec(requestLine);
  if (request === null) return BAD_REQUEST;
  const [, method, target = ''] = request;
  if (method !== 'CONNECT') {
    return ABSOLUTE_FORM.test(target) ? insecureUrl(target) : BAD_REQUEST;
  }
  const authority = AUTHORITY.exec(target);
  if (authority === null) return BAD_REQUEST;
  const host = normalizeHost(authority[1] ?? '');
  const port = Number(authority[2]);
  if (host === undefined || port < 1 || port > 65_535) return BAD_REQUEST;
  return { kind: 'connect', host, port, headLength };
}

// The index after the first CRLFCRLF within the cap. Each LF must follow a CR and each CR must
// precede an LF: a bare one is read as a line break by some parsers and not by others.
function findHeadEnd(bytes: Uint8Array): number | 'malformed' | undefined {
  const limit = Math.min(bytes.length, MAX_REQUEST_HEAD_BYTES);
  for (let index = 0; index < limit; index += 1) {
    const byte = bytes[index] as number;
    if (byte === LF) {
      if (bytes[index - 1] !== CR) return 'malformed';
      if (bytes[index - 2] === LF) return index + 1;
    } else if (byte === CR) {
      if (index + 1 < bytes.length && bytes[index + 1] !== LF) return 'malformed';
    } else if ((byte < 0x20 && byte !== HTAB) || byte >= 0x7f) {
      // Controls and obs-text: nothing a proxy request legitimately carries.
      return 'malformed';
    }
  }
  return undefined;
}

function isAcceptableHeader(line: string): boolean {
  // A line opening with whitespace is obs-fold (RFC 9112 §5.2): refused, not unfolded.
  const header = HEADER_LINE.exec(line);
  if (header === null) return false;
  const name = (header[1] ?? '').toLowerCase();
  // CONNECT has no content (RFC 9110 §9.3.6); a body length would make the first tunnel bytes
  // ambiguous between "body" and "ClientHello".
  if (name === 'transfer-encoding') return false;
  if (name === 'content-length') return line.slice(line.indexOf(':') + 1).trim() === '0';
  return true;
}

function insecureUrl(target: string): ProxyRequestScan {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { kind: 'insecure_url' };
  }
  const host = normalizeHost(url.hostname);
  const port = url.port !== '' ? Number(url.port) : DEFAULT_PORTS.get(url.protocol);
  return {
    kind: 'insecure_url',
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
  };
}
