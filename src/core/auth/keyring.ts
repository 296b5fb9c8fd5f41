import { errors as joseErrors } from "jose";
import type { Config } from "../env";

/**
 * The API's signing secrets during a rotation (docs/operations.md "Rotating secrets"): everything is
 * signed with `JWT_SECRET`; what was signed before the rotation still verifies against
 * `JWT_SECRET_PREVIOUS` until the operator removes it. Each secret has a key id (`kid`), written into the
 * header of what it signs, so a verifier picks the one right key instead of trying both.
 *
 * The id is the first 8 bytes of SHA-256 over a fixed label and the secret: it names the secret without
 * saying anything about it (the secret is at least 32 characters, so the hash cannot be searched).
 */
export interface SigningSecret {
  kid: string;
  secret: string;
}

const kids = new Map<string, Promise<string>>();

export function keyIdOf(secret: string): Promise<string> {
  let kid = kids.get(secret);
  if (!kid) {
    kid = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(`warga signing key id v1\u0000${secret}`))
      .then((digest) =>
        [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join(""),
      );
    kids.set(secret, kid);
  }
  return kid;
}

/** The secret new values are signed with. */
export async function currentSecret(config: Config): Promise<SigningSecret> {
  return { kid: await keyIdOf(config.JWT_SECRET), secret: config.JWT_SECRET };
}

/** Every secret a value may have been signed with, current first. */
export async function verifyingSecrets(config: Config): Promise<SigningSecret[]> {
  const all = [await currentSecret(config)];
  const previous = config.JWT_SECRET_PREVIOUS;
  if (previous && previous !== config.JWT_SECRET) {
    all.push({ kid: await keyIdOf(previous), secret: previous });
  }
  return all;
}

/**
 * The secrets to try for a value whose header says `kid`: exactly the one it names (none when it names a
 * key this Worker does not hold: a forged or retired id), or, for values signed before key ids existed
 * (no `kid`), each in turn.
 */
export async function secretsFor(config: Config, kid: unknown): Promise<SigningSecret[]> {
  const all = await verifyingSecrets(config);
  if (kid === undefined) {
    return all;
  }
  return all.filter((s) => s.kid === kid);
}

/**
 * Verifies with each candidate secret in turn (`secretsFor`): the first whose signature matches wins.
 * Any other failure (expired, wrong audience) is final, since the signature was right; with no
 * candidate, or none matching, it is a signature failure.
 */
export async function firstVerified<T>(
  candidates: readonly SigningSecret[],
  verify: (secret: string) => Promise<T>,
): Promise<T> {
  // Built only when nothing matched: an Error captures a stack, and this runs on every request.
  let failure: unknown;
  for (const { secret } of candidates) {
    try {
      return await verify(secret);
    } catch (error) {
      if (!(error instanceof joseErrors.JWSSignatureVerificationFailed)) {
        throw error;
      }
      failure = error;
    }
  }
  throw failure ?? new joseErrors.JWSSignatureVerificationFailed();
}
