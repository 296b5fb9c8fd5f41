import { base64url, fromBase64url } from "../ids";

/**
 * Password hashes (ADR 0012). workerd caps PBKDF2 at 100,000 iterations, below what OWASP asks of
 * PBKDF2-SHA256 (600,000), so the iteration count cannot simply go up. Instead:
 * - the password is first keyed with a pepper (HMAC-SHA256 under `PASSWORD_PEPPER`, a secret kept in
 *   configuration, never in the database), so a leaked database alone cannot be attacked offline;
 * - PBKDF2 runs with SHA-512 at the cap, where OWASP's figure (210,000) is a smaller gap.
 * Stored as `pbkdf2-sha512-peppered$<iterations>$<salt>$<hash>`. Hashes of the first scheme
 * (`pbkdf2-sha256`, no pepper) still verify and report `needsRehash`, so sign-in upgrades them.
 */
export const PBKDF2_ITERATIONS = 100_000;
const SCHEME = "pbkdf2-sha512-peppered";
const LEGACY_SCHEME = "pbkdf2-sha256";

async function pepper(password: string, secret: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(password)));
}

async function derive(
  material: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  hash: "SHA-256" | "SHA-512",
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", material, "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash, salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, secret: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(await pepper(password, secret), salt, PBKDF2_ITERATIONS, "SHA-512");
  return `${SCHEME}$${PBKDF2_ITERATIONS}$${base64url(salt)}$${base64url(hash)}`;
}

/** A fixed hash to verify against when the account does not exist, so both paths cost the same. */
const DUMMY_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

export interface PasswordCheck {
  valid: boolean;
  /** The stored hash is of an older scheme or cost: store a fresh one now that the password is known. */
  needsRehash: boolean;
}

export async function verifyPassword(
  password: string,
  stored: string | null | undefined,
  secret: string,
): Promise<PasswordCheck> {
  const [scheme, iter, saltText, hashText] = (stored ?? DUMMY_HASH).split("$");
  const iterations = Number(iter);
  const known = scheme === SCHEME || scheme === LEGACY_SCHEME;
  if (!known || !saltText || !hashText || !Number.isInteger(iterations) || iterations <= 0) {
    return { valid: false, needsRehash: false };
  }
  const salt = fromBase64url(saltText);
  const actual =
    scheme === SCHEME
      ? await derive(await pepper(password, secret), salt, iterations, "SHA-512")
      : await derive(new TextEncoder().encode(password), salt, iterations, "SHA-256");
  const expected = fromBase64url(hashText);
  const equal = expected.byteLength === actual.byteLength && crypto.subtle.timingSafeEqual(expected, actual);
  const valid = equal && stored != null;
  return { valid, needsRehash: valid && (scheme !== SCHEME || iterations < PBKDF2_ITERATIONS) };
}
