import type { Config } from "../../core/env";

/**
 * Issue 31, N7: an archive carries the platform's signature over its manifest (which holds the size and
 * SHA-256 of every entry), so an import takes only what this platform exported: a hand-made archive
 * whose file rows name another community's storage keys does not verify. HMAC-SHA256 (crypto.subtle)
 * under a key derived by HKDF from the platform secret `ARCHIVE_SIGNING_KEY`, which signs nothing else:
 * no other secret (the password pepper was first used here) doubles as the key to forge a restore.
 * Archives signed under the pepper's derivation are not accepted: that derivation never left the wave
 * it was written in.
 */
export const SIGNATURE_PATH = "manifest.sig";

const LABEL = new TextEncoder().encode("warga/tenant-archive-signature/v1");
const keys = new Map<string, Promise<CryptoKey>>();

function signingKey(config: Pick<Config, "ARCHIVE_SIGNING_KEY">): Promise<CryptoKey> {
  let key = keys.get(config.ARCHIVE_SIGNING_KEY);
  if (!key) {
    key = (async () => {
      const secret = await crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(config.ARCHIVE_SIGNING_KEY),
        "HKDF",
        false,
        ["deriveKey"],
      );
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: LABEL },
        secret,
        { name: "HMAC", hash: "SHA-256", length: 256 },
        false,
        ["sign", "verify"],
      );
    })();
    keys.set(config.ARCHIVE_SIGNING_KEY, key);
  }
  return key;
}

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The signature entry's content for these manifest bytes: lower-case hex. */
export async function signManifest(
  config: Pick<Config, "ARCHIVE_SIGNING_KEY">,
  manifest: Uint8Array,
): Promise<string> {
  return hex(await crypto.subtle.sign("HMAC", await signingKey(config), manifest));
}

/** Whether `signature` (the entry's text) is this platform's over exactly these bytes; compared in constant time. */
export async function verifyManifest(
  config: Pick<Config, "ARCHIVE_SIGNING_KEY">,
  manifest: Uint8Array,
  signature: string,
): Promise<boolean> {
  const text = signature.trim();
  if (!/^[0-9a-f]{64}$/.test(text)) {
    return false;
  }
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  }
  return crypto.subtle.verify("HMAC", await signingKey(config), bytes, manifest);
}
