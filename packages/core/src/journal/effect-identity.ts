import { encodeJson } from './encode-json.js';
import { encodeText, platformSha256, toBase64Url, toHex, webCryptoSha256 } from './sha256.js';

/** Why an identity could not be computed; the bracket turns each into a fail-closed refusal. */
export type EffectIdentityFailure = 'digest_unavailable' | 'args_unencodable';

/**
 * The `argsDigest` of an `EffectKey`: lowercase hex SHA-256 of the canonical JSON (keys in
 * code-unit order) of the COMPLETE effective arguments, config-only and secret-tainted keys
 * included, so a changed pinned `cwd`, endpoint or credential is another identity. It is an
 * unkeyed digest of possibly low-entropy values: a store that persists it must key it at rest
 * (HMAC-SHA256 under a key kept beside the journal), never write it as is.
 */
export async function effectArgsDigest(
  args: unknown,
  storeSha256?: (data: Uint8Array) => Uint8Array,
): Promise<string | EffectIdentityFailure> {
  const sha256 = storeSha256 ?? platformSha256() ?? webCryptoSha256();
  if (sha256 === undefined) return 'digest_unavailable';
  const canonical = encodeJson(args, { sortKeys: true });
  if (canonical === undefined) return 'args_unencodable';
  return toHex(await sha256(encodeText(`${ARGS_DOMAIN}\n${canonical}`)));
}

/**
 * The idempotency key a journaled dispatch hands the host (`ToolHostCallOptions.idempotencyKey`):
 * `toolhost-` and the unpadded base64url SHA-256 of a length-prefixed encoding of `runId` and
 * `callKey`. Stable (the same call of the same run always gets the same key, in any process) and
 * per call; it carries neither id readably, so it may leave on a request header. Rejects where
 * the runtime has neither a synchronous SHA-256 nor WebCrypto.
 */
export async function effectIdempotencyKey(
  runId: string,
  callKey: string,
  storeSha256?: (data: Uint8Array) => Uint8Array,
): Promise<string> {
  const sha256 = storeSha256 ?? platformSha256() ?? webCryptoSha256();
  if (sha256 === undefined) throw new TypeError('toolhost: WebCrypto SHA-256 is unavailable');
  return `toolhost-${toBase64Url(await sha256(lengthPrefixed([KEY_DOMAIN, runId, callKey])))}`;
}

// Domain tags: an args digest and an idempotency key are never computed over the same bytes.
const ARGS_DOMAIN = 'toolhost-effect-args-v1';
const KEY_DOMAIN = 'toolhost-idempotency-key-v1';

// Each field as a 4-byte big-endian length and its bytes: `("a:b", "c")` and `("a", "b:c")` differ.
function lengthPrefixed(fields: readonly string[]): Uint8Array {
  const encoded = fields.map(encodeText);
  const out = new Uint8Array(encoded.reduce((total, bytes) => total + 4 + bytes.length, 0));
  let offset = 0;
  for (const bytes of encoded) {
    new DataView(out.buffer).setUint32(offset, bytes.length);
    out.set(bytes, offset + 4);
    offset += 4 + bytes.length;
  }
  return out;
}
