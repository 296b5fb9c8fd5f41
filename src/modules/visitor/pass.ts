import { decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify, SignJWT } from "jose";
import { currentSecret, firstVerified, secretsFor } from "../../core/auth/keyring";
import { derivedHmacKey } from "../../core/auth/keys";
import type { Config } from "../../core/env";
import { Conflict, Invalid } from "../../core/errors";
import { DAY_MS, jakartaDay, jakartaDayStart } from "../../core/time";

/**
 * A visitor pass is a compact JWT carried in the QR: tenant, visitor id and validity window, signed with
 * a key derived from the API secret for this purpose only, so a pass can never pass as an access token
 * (nor an access token as a pass). Issued-at is the approval time, so the same approval always yields
 * the same pass string (until the secret is rotated: the header's `kid` names the secret it came from,
 * and a pass signed before a rotation verifies while `JWT_SECRET_PREVIOUS` still holds that secret).
 */
const AUDIENCE = "warga-gate";
const PURPOSE = "warga visitor pass v1";

export interface PassWindow {
  validFrom: string;
  validUntil: string;
}

/** One hour before the visit to the end of that calendar day in Asia/Jakarta. */
/** A pass opens this long before its visit, so a guest a little early is let in. */
export const PASS_OPENS_BEFORE_MS = 3_600_000;

export function defaultWindow(visitAt: string): PassWindow {
  const visit = new Date(visitAt);
  const dayEnd = new Date(jakartaDayStart(jakartaDay(visit)).getTime() + DAY_MS - 1000);
  return {
    validFrom: new Date(visit.getTime() - PASS_OPENS_BEFORE_MS).toISOString(),
    validUntil: dayEnd.toISOString(),
  };
}

/**
 * Passes and codes this isolate has made, by everything that goes into them (the secret's `kid`, the
 * issuer and the claims, or the pass): both are pure functions of those, so a kept one is the one that
 * would be made again. A resident's list of guests shows twenty passes and their codes, two MACs and a
 * JWT each; a list read again makes none (ADR 0015, twelfth pass). At most MADE_KEPT of each; the oldest go first.
 */
const MADE_KEPT = 2_000;
const made = { passes: new Map<string, string>(), codes: new Map<string, string>() };

/** Sets `key` in `kept`, dropping the oldest entry once there are more than `max`. */
function keepBounded<T>(kept: Map<string, T>, key: string, value: T, max: number): T {
  kept.set(key, value);
  if (kept.size > max) {
    for (const oldest of kept.keys()) {
      kept.delete(oldest);
      break;
    }
  }
  return value;
}

function keep(kept: Map<string, string>, key: string, value: string): string {
  return keepBounded(kept, key, value, MADE_KEPT);
}

export async function signPass(
  config: Config,
  claims: { tenant: string; visitorId: string; issuedAt: string } & PassWindow,
): Promise<string> {
  const { kid, secret } = await currentSecret(config);
  const key = [
    kid,
    config.JWT_ISSUER,
    claims.tenant,
    claims.visitorId,
    claims.issuedAt,
    claims.validFrom,
    claims.validUntil,
  ].join("\n");
  const known = made.passes.get(key);
  if (known !== undefined) {
    return known;
  }
  return keep(made.passes, key, await makePass(config, claims, kid, secret));
}

async function makePass(
  config: Config,
  claims: { tenant: string; visitorId: string; issuedAt: string } & PassWindow,
  kid: string,
  secret: string,
): Promise<string> {
  return new SignJWT({ tenant: claims.tenant })
    .setProtectedHeader({ alg: "HS256", typ: "warga-pass", kid })
    .setIssuer(config.JWT_ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(claims.visitorId)
    .setIssuedAt(new Date(claims.issuedAt))
    .setNotBefore(new Date(claims.validFrom))
    .setExpirationTime(new Date(claims.validUntil))
    .sign(await derivedHmacKey(secret, PURPOSE));
}

const CODE_PURPOSE = "warga visitor pass code v1";
/** Crockford's base 32: no I, L, O or U, so a code read aloud or typed from a screen is not misread. */
const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 8;

/**
 * The pass's short code, for a guard to type when the QR cannot be scanned: 8 characters (40 bits) of a
 * MAC of the pass under a key kept for this purpose, shown as `ABCD-EFGH`. It is derived, never stored:
 * the same pass always has the same code, and a code is as unguessable as 40 bits against a gate that
 * only staff and the guard can call. A guard's list of guests never carries passes, so it cannot make one.
 */
export async function passCode(config: Config, pass: string): Promise<string> {
  const { kid, secret } = await currentSecret(config);
  const key = `${kid}\n${pass}`;
  const known = made.codes.get(key);
  if (known !== undefined) {
    return known;
  }
  const mac = new Uint8Array(
    await crypto.subtle.sign(
      "HMAC",
      await derivedHmacKey(secret, CODE_PURPOSE),
      new TextEncoder().encode(pass),
    ),
  );
  let bits = 0n;
  for (const byte of mac.subarray(0, 5)) {
    bits = (bits << 8n) | BigInt(byte);
  }
  let code = "";
  for (let i = CODE_LENGTH - 1; i >= 0; i--) {
    code += CODE_ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  }
  return keep(made.codes, key, `${code.slice(0, 4)}-${code.slice(4)}`);
}

/** A code as typed ("abcd efgh", "ABCD-EFGH", an O for a zero) written as `passCode` writes it. */
export function normalisePassCode(typed: string): string {
  const plain = typed
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  return plain.length === CODE_LENGTH ? `${plain.slice(0, 4)}-${plain.slice(4)}` : plain;
}

/** With the secret the header's `kid` names; a pass without one is tried against each secret held. */
async function verifiedPass(config: Config, token: string, now: Date): Promise<JWTPayload> {
  return firstVerified(await secretsFor(config, decodeProtectedHeader(token).kid), async (secret) => {
    const { payload } = await jwtVerify(token, await derivedHmacKey(secret, PURPOSE), {
      algorithms: ["HS256"],
      issuer: config.JWT_ISSUER,
      audience: AUDIENCE,
      requiredClaims: ["sub", "nbf", "exp"],
      currentDate: now,
    });
    return payload;
  });
}

type ReadPass = NonNullable<Awaited<ReturnType<typeof readPass>>>;

/**
 * Passes this isolate has verified (`readPass`), per configuration (a rotated secret starts afresh), as
 * the access tokens are (core/auth/tokens.ts): a pass is scanned at least twice (in and out, again each
 * day of a longer stay) and a guard may scan one again, and a map lookup is far cheaper than parsing the
 * JWT and an HMAC. Only what was verified is kept, so a forged pass is checked every time; the window is
 * checked on every scan, at that scan's time. Bounded; the oldest go first.
 */
const scanned = new WeakMap<Config, Map<string, ReadPass>>();
const SCANNED_MAX = 2_000;

async function scannedPass(config: Config, token: string): Promise<ReadPass | null> {
  let byToken = scanned.get(config);
  if (!byToken) {
    byToken = new Map();
    scanned.set(config, byToken);
  }
  const kept = byToken.get(token);
  if (kept) {
    return kept;
  }
  const pass = await readPass(config, token);
  return pass && keepBounded(byToken, token, pass, SCANNED_MAX);
}

/**
 * Checks a scanned pass for the tenant whose gate scanned it. Forged or altered passes are 400
 * `invalid_pass`; another tenant's pass is 400 `foreign_pass`; outside its window at `now` (the context's
 * clock) it is 409, by jose's rule in whole seconds: not before `nbf`, expired at `exp`.
 */
export async function verifyPass(config: Config, token: string, tenant: string, now: Date): Promise<string> {
  const pass = await scannedPass(config, token);
  if (!pass) {
    throw new Invalid("invalid_pass", "This is not a valid visitor pass.");
  }
  const seconds = Math.floor(now.getTime() / 1000);
  if (pass.validFrom.getTime() / 1000 > seconds) {
    throw new Conflict("pass_not_yet_valid", "This pass is not valid yet.");
  }
  if (pass.validUntil.getTime() / 1000 <= seconds) {
    throw new Conflict("pass_expired", "This pass has expired.");
  }
  if (pass.tenant !== tenant) {
    throw new Invalid("foreign_pass", "This pass belongs to another community.");
  }
  return pass.visitorId;
}

/**
 * The pass behind a pass link (`/tamu/:pass`, issue 42): whose it is, by signature, issuer and audience
 * alone. Its window is not checked here: the page shows an expired or not-yet-valid pass as such, and
 * only the gate (`verifyPass`) refuses it. The time checks are done at the pass's own `nbf`, which the
 * signature covers. Anything that is not a pass of ours (malformed, forged, another key's) is null.
 */
export async function readPass(
  config: Config,
  token: string,
): Promise<{ tenant: string; visitorId: string; validFrom: Date; validUntil: Date } | null> {
  try {
    const { nbf } = decodeJwt(token);
    if (typeof nbf !== "number") {
      return null;
    }
    const payload = await verifiedPass(config, token, new Date(nbf * 1000));
    if (
      typeof payload.tenant !== "string" ||
      typeof payload.sub !== "string" ||
      typeof payload.exp !== "number"
    ) {
      return null;
    }
    return {
      tenant: payload.tenant,
      visitorId: payload.sub,
      validFrom: new Date(nbf * 1000),
      validUntil: new Date(payload.exp * 1000),
    };
  } catch {
    return null;
  }
}
