const KEY_BYTES = 32;
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
// 32 bytes are 43 base64 digits and one pad; base64url and an unpadded key are accepted too.
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * The journal's HMAC key as 32 bytes of its own (a copy: the embedder's buffer may change). The
 * refusal never echoes the value: it is a secret, and a near miss would leak most of it.
 */
export function resolvePostgresJournalKey(key: unknown): Buffer {
  if (key instanceof Uint8Array) {
    if (key.byteLength === KEY_BYTES) return Buffer.from(key);
  } else if (typeof key === 'string') {
    if (HEX_KEY.test(key)) return Buffer.from(key, 'hex');
    if (BASE64_KEY.test(key)) {
      const bytes = Buffer.from(key, 'base64');
      if (bytes.length === KEY_BYTES) return bytes;
    }
  }
  throw new TypeError(
    'toolhost: the Postgres effect journal key must be 32 bytes, or a hex or base64 string of 32 bytes',
  );
}
