/**
 * The structural slice of WebCrypto this needs, so core typechecks with no DOM or Node types.
 * `globalThis.crypto.subtle` exists in Node ≥ 20, every browser, workers, Deno and Bun.
 */
interface SubtleDigest {
  digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
}

/** The runtime's SHA-256, or `undefined` where there is no WebCrypto (the caller fails closed). */
export function webCryptoSha256(): ((data: Uint8Array) => Promise<Uint8Array>) | undefined {
  const crypto = (globalThis as { readonly crypto?: { readonly subtle?: Partial<SubtleDigest> } })
    .crypto;
  const subtle = crypto?.subtle;
  if (typeof subtle?.digest !== 'function') return undefined;
  return async (data) => new Uint8Array(await (subtle as SubtleDigest).digest('SHA-256', data));
}

/** The slice of `node:crypto` this needs, structurally: core has no Node types. */
interface BuiltinCrypto {
  createHash(algorithm: 'sha256'): { update(data: Uint8Array): { digest(): Uint8Array } };
}

type SyncDigest = (data: Uint8Array) => Uint8Array;

// Loaded once per `getBuiltinModule` function: a test that replaces it is seen, a call is not
// charged a module lookup.
let loaded: { readonly from: unknown; readonly digest: SyncDigest | undefined } | undefined;

/**
 * The runtime's synchronous SHA-256 where it has one (Node's and Bun's `node:crypto`, reached
 * through `process.getBuiltinModule` so core imports nothing of Node), else `undefined`.
 * WebCrypto's digest is asynchronous: a thread-pool round trip per call, +60 µs on a dispatch
 * of a few; this is the same SHA-256, so a digest is the same either way.
 */
export function platformSha256(): SyncDigest | undefined {
  const host = globalThis as {
    readonly process?: { readonly getBuiltinModule?: (id: string) => unknown };
  };
  const getBuiltinModule = host.process?.getBuiltinModule;
  if (loaded === undefined || loaded.from !== getBuiltinModule) {
    loaded = { from: getBuiltinModule, digest: loadSha256(getBuiltinModule) };
  }
  return loaded.digest;
}

function loadSha256(
  getBuiltinModule: ((id: string) => unknown) | undefined,
): SyncDigest | undefined {
  if (typeof getBuiltinModule !== 'function') return undefined;
  let crypto: Partial<BuiltinCrypto> | undefined;
  try {
    crypto = getBuiltinModule('node:crypto') as Partial<BuiltinCrypto> | undefined;
  } catch {
    return undefined;
  }
  const createHash = crypto?.createHash;
  if (typeof createHash !== 'function') return undefined;
  return (data) => createHash.call(crypto, 'sha256').update(data).digest();
}

/**
 * UTF-8 of `text`, with a lone surrogate written as its own 3-byte sequence (WTF-8) rather than
 * U+FFFD: two different strings never encode to the same bytes, so never share a digest.
 */
export function encodeText(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    let point = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (point >= 0xd800 && point <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      point = 0x10000 + ((point - 0xd800) << 10) + (next - 0xdc00);
      index++;
    }
    if (point < 0x80) bytes.push(point);
    else if (point < 0x800) bytes.push(0xc0 | (point >> 6), 0x80 | (point & 0x3f));
    else if (point < 0x10000) {
      bytes.push(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f));
    } else {
      bytes.push(
        0xf0 | (point >> 18),
        0x80 | ((point >> 12) & 0x3f),
        0x80 | ((point >> 6) & 0x3f),
        0x80 | (point & 0x3f),
      );
    }
  }
  return Uint8Array.from(bytes);
}

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Unpadded base64url of `bytes` (RFC 4648 §5): safe in a header, an env value or a file name. */
export function toBase64Url(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const a = bytes[index] ?? 0;
    const b = bytes[index + 1];
    const c = bytes[index + 2];
    const triple = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    text += BASE64URL[(triple >> 18) & 63] ?? '';
    text += BASE64URL[(triple >> 12) & 63] ?? '';
    if (b !== undefined) text += BASE64URL[(triple >> 6) & 63] ?? '';
    if (c !== undefined) text += BASE64URL[triple & 63] ?? '';
  }
  return text;
}
