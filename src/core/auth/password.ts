import { base64url, fromBase64url } from "../ids";

/**
 * PBKDF2-SHA256 with a per-user salt, stored as `pbkdf2-sha256$<iterations>$<salt>$<hash>` so the
 * iteration count can be raised later while old hashes still verify. workerd caps PBKDF2 at 100,000
 * iterations, which is what we use.
 */
export const PBKDF2_ITERATIONS = 100_000;
const SCHEME = "pbkdf2-sha256";

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, iterations);
  return `${SCHEME}$${iterations}$${base64url(salt)}$${base64url(hash)}`;
}

/** A fixed hash to verify against when the account does not exist, so both paths cost the same. */
const DUMMY_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, iter, saltText, hashText] = (stored ?? DUMMY_HASH).split("$");
  const iterations = Number(iter);
  if (scheme !== SCHEME || !saltText || !hashText || !Number.isInteger(iterations) || iterations <= 0) {
    return false;
  }
  const expected = fromBase64url(hashText);
  const actual = await derive(password, fromBase64url(saltText), iterations);
  const equal = expected.byteLength === actual.byteLength && crypto.subtle.timingSafeEqual(expected, actual);
  return equal && stored != null;
}
