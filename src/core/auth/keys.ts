/**
 * An HMAC-SHA256 key derived (HKDF) from one of our secrets for one purpose, so a value signed for one
 * purpose (a visitor's gate pass, a ticket's reply token) says nothing of the secret or of another
 * purpose's values. Derived once per isolate, secret and purpose.
 */
const keys = new Map<string, Promise<CryptoKey>>();

export function derivedHmacKey(secret: string, purpose: string): Promise<CryptoKey> {
  const id = `${purpose}\u0000${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = (async () => {
      const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, [
        "deriveKey",
      ]);
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode(purpose) },
        base,
        { name: "HMAC", hash: "SHA-256", length: 256 },
        false,
        ["sign", "verify"],
      );
    })();
    keys.set(id, key);
  }
  return key;
}
