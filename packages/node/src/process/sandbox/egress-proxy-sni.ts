import { normalizeHost } from '@toolhost/core/policy';

/**
 * The most tunnel bytes buffered while waiting for a whole ClientHello. A real one is a few
 * hundred bytes to ~2 KiB (post-quantum key shares); one TLS record (16 KiB) is the cap.
 */
export const MAX_CLIENT_HELLO_BYTES = 16 * 1024;

/** What the first bytes of a tunnel turned out to be. */
export type ClientHelloScan =
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'not_tls' }
  /** Every host_name entry of every server_name extension, raw (latin1), in order. */
  | { readonly kind: 'client_hello'; readonly serverNames: readonly string[] };

const RECORD_HEADER_BYTES = 5;
const HANDSHAKE_HEADER_BYTES = 4;
// RFC 8446 §5.1: a plaintext record carries at most 2^14 bytes.
const MAX_RECORD_BYTES = 16 * 1024;
// Real stacks send the ClientHello in one record; fragmenting it further is what DPI-evasion
// tools do, and each extra record is one more place for our parse and the server's to disagree.
const MAX_HELLO_RECORDS = 4;
const CONTENT_TYPE_HANDSHAKE = 22;
const HANDSHAKE_CLIENT_HELLO = 1;
const EXTENSION_SERVER_NAME = 0;
const NAME_TYPE_HOST_NAME = 0;

const INCOMPLETE: ClientHelloScan = { kind: 'incomplete' };
const NOT_TLS: ClientHelloScan = { kind: 'not_tls' };

/**
 * Reads the server names out of the first bytes a client sends through a tunnel. Strict where
 * the server might be lenient (lengths must fit exactly, no trailing handshake bytes, no
 * duplicate server_name extension): the name we check must be the only name the server can see.
 * `incomplete` only while a whole ClientHello could still arrive within the byte cap.
 */
export function scanClientHello(bytes: Uint8Array): ClientHelloScan {
  const body = reassembleClientHello(bytes);
  if (!(body instanceof Uint8Array)) return body;
  try {
    return { kind: 'client_hello', serverNames: readServerNames(new Cursor(body)) };
  } catch (error) {
    if (error instanceof MalformedHello) return NOT_TLS;
    throw error;
  }
}

/**
 * True only when the hello names exactly one host and it is `host` (already normalised), case
 * and one trailing dot aside. No SNI is a mismatch: the server would then pick its default site,
 * which need not be the allowed one.
 */
export function serverNameMatches(serverNames: readonly string[], host: string): boolean {
  if (serverNames.length !== 1) return false;
  const [name] = serverNames as [string];
  // IDNs travel as punycode: a percent escape or a raw non-ASCII byte would be decoded by the
  // WHATWG host parser into a name no TLS server compares against.
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return false;
  return normalizeHost(name) === host;
}

// Joins handshake-record fragments into the ClientHello body (after its 4-byte header).
function reassembleClientHello(bytes: Uint8Array): Uint8Array | ClientHelloScan {
  const fragments: Uint8Array[] = [];
  let collected = 0;
  let offset = 0;
  for (let records = 0; records < MAX_HELLO_RECORDS; records += 1) {
    // Judge each header byte as soon as it arrives, so plain text is refused on its first byte.
    if (bytes.length > offset && bytes[offset] !== CONTENT_TYPE_HANDSHAKE) return NOT_TLS;
    if (bytes.length > offset + 1 && bytes[offset + 1] !== 3) return NOT_TLS;
    if (bytes.length < offset + RECORD_HEADER_BYTES) return INCOMPLETE;
    const length = readUint16(bytes, offset + 3);
    // RFC 8446 §5.1 forbids zero-length handshake fragments.
    if (length === 0 || length > MAX_RECORD_BYTES) return NOT_TLS;
    const end = offset + RECORD_HEADER_BYTES + length;
    if (end > MAX_CLIENT_HELLO_BYTES) return NOT_TLS;
    if (bytes.length < end) return INCOMPLETE;
    fragments.push(bytes.subarray(offset + RECORD_HEADER_BYTES, end));
    collected += length;
    offset = end;
    if (collected < HANDSHAKE_HEADER_BYTES) continue;

    const handshake =
      fragments.length === 1 ? (fragments[0] as Uint8Array) : Buffer.concat(fragments);
    if (handshake[0] !== HANDSHAKE_CLIENT_HELLO) return NOT_TLS;
    const total = HANDSHAKE_HEADER_BYTES + readUint24(handshake, 1);
    // The rest must fit in the cap even as one more record.
    if (
      total > collected &&
      offset + RECORD_HEADER_BYTES + (total - collected) > MAX_CLIENT_HELLO_BYTES
    ) {
      return NOT_TLS;
    }
    // A client's first flight holds nothing but its ClientHello; bytes after it in the same
    // handshake stream are a second message the server would read and we would not.
    if (collected > total) return NOT_TLS;
    if (collected === total) return handshake.subarray(HANDSHAKE_HEADER_BYTES);
  }
  return NOT_TLS;
}

// ClientHello (RFC 8446 §4.1.2; TLS 1.0–1.2 hellos share the layout, extensions optional).
function readServerNames(hello: Cursor): string[] {
  hello.skip(2 + 32); // legacy_version, random
  hello.vector(1, 0, 32); // legacy_session_id
  const cipherSuites = hello.vector(2, 2, 0xfffe);
  if (cipherSuites.remaining % 2 !== 0) throw new MalformedHello();
  hello.vector(1, 1, 0xff); // legacy_compression_methods
  if (hello.remaining === 0) return [];
  const extensions = hello.vector(2, 0, 0xffff);
  hello.end();

  const names: string[] = [];
  let seenServerName = false;
  while (extensions.remaining > 0) {
    const type = extensions.uint16();
    const data = extensions.vector(2, 0, 0xffff);
    if (type !== EXTENSION_SERVER_NAME) continue;
    // RFC 8446 §4.2: a repeated extension type is an error; a lenient server could read either.
    if (seenServerName) throw new MalformedHello();
    seenServerName = true;
    names.push(...readHostNames(data));
  }
  return names;
}

// ServerNameList (RFC 6066 §3). An empty extension is the server's acknowledgement form, never a
// client's; an unknown name_type has no defined length, so nothing after it can be trusted.
function readHostNames(extension: Cursor): string[] {
  const list = extension.vector(2, 1, 0xffff);
  extension.end();
  const names: string[] = [];
  while (list.remaining > 0) {
    if (list.uint8() !== NAME_TYPE_HOST_NAME) throw new MalformedHello();
    names.push(list.vector(2, 1, 0xffff).latin1());
  }
  return names;
}

class MalformedHello extends Error {}

/** A bounds-checked reader: every overrun is a `MalformedHello`, never a short read. */
class Cursor {
  #offset = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.#offset;
  }

  uint8(): number {
    return readUint8(this.take(1), 0);
  }

  uint16(): number {
    return readUint16(this.take(2), 0);
  }

  skip(length: number): void {
    this.take(length);
  }

  /** A length-prefixed field as its own cursor; the length must lie in [min, max]. */
  vector(prefixBytes: 1 | 2, min: number, max: number): Cursor {
    const length = prefixBytes === 1 ? this.uint8() : this.uint16();
    if (length < min || length > max) throw new MalformedHello();
    return new Cursor(this.take(length));
  }

  /** The field must be used up exactly: trailing bytes are a length the sender lied about. */
  end(): void {
    if (this.remaining !== 0) throw new MalformedHello();
  }

  latin1(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length).toString(
      'latin1',
    );
  }

  private take(length: number): Uint8Array {
    if (length > this.remaining) throw new MalformedHello();
    const slice = this.bytes.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return slice;
  }
}

function readUint8(bytes: Uint8Array, offset: number): number {
  return bytes[offset] ?? 0;
}

function readUint16(bytes: Uint8Array, offset: number): number {
  return (readUint8(bytes, offset) << 8) | readUint8(bytes, offset + 1);
}

function readUint24(bytes: Uint8Array, offset: number): number {
  return (readUint8(bytes, offset) << 16) | readUint16(bytes, offset + 1);
}
