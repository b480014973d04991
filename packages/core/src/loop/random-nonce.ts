// Core is engine-pure: it sees neither DOM nor Node types, so it declares the one crypto method
// it uses. Every runtime toolhost supports (Node >= 20, browsers, Deno, Bun, workers) has it.
interface CryptoLike {
  getRandomValues(array: Uint8Array): Uint8Array;
}

/** A fresh unguessable token; a tool result cannot forge a fence it cannot predict. */
export type RandomNonce = () => string;

/** 128 random bits as hex, from `globalThis.crypto.getRandomValues`. */
export const defaultRandomNonce: RandomNonce = () => {
  const crypto = (globalThis as { readonly crypto?: CryptoLike }).crypto;
  if (crypto === undefined) {
    throw new TypeError('toolhost: no globalThis.crypto here; pass a randomNonce function');
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
};
