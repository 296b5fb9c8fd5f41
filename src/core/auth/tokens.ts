import { decodeProtectedHeader, type JWTPayload, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { DUTIES, type Duty } from "../context";
import type { Config } from "../env";
import { Unauthorized } from "../errors";
import { currentSecret, firstVerified, secretsFor } from "./keyring";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ALG = "HS256";
/** Clocks of Workers and clients differ by seconds, not minutes. */
const CLOCK_SKEW_SECONDS = 30;

export interface AccessClaims {
  sub: string;
  /** Tenant slug; null for platform operators, who act across tenants through platform routes. */
  tenant: string | null;
  /** The member's duties in `tenant` (possibly none); `["super_admin"]` for an operator's platform session. */
  roles: readonly (Duty | "super_admin")[];
  /** Whether the member lives in `tenant` (reaches the resident routes); false for an operator. */
  resident: boolean;
  sid: string;
  /**
   * The membership behind a member's token and its `row_version` when the token was signed (ADR 0043):
   * the guard compares them with the feed of changed memberships, so a token signed before a change of
   * duties or house is served as the membership now stands. Absent for an operator (and in tokens signed
   * before they existed).
   */
  mid?: string;
  mv?: number;
  /**
   * The membership's house when the token was signed (only with `mid`), null for none: what a
   * resident's own pages ask first ("my guests", "my dues", the household's ballot) without a read of
   * the platform database. A newer version in the feed brings the house as it now stands (ADR 0043).
   */
  unit?: string | null;
}

/** Imported once per isolate and secret: importing an HMAC key on every request costs as much as verifying. */
const keys = new Map<string, Promise<CryptoKey>>();
function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    keys.set(secret, key);
  }
  return key;
}

/** Signed with `JWT_SECRET`, its key id in the header (core/auth/keyring.ts). */
export async function signAccessToken(
  config: Config,
  claims: AccessClaims,
  /**
   * When it expires (seconds since the epoch), for a token that restates a live one with current claims:
   * it ends with the token it replaces, so nothing but a refresh extends a sign-in. 15 minutes otherwise.
   */
  expiresAt?: number,
): Promise<string> {
  const { kid, secret } = await currentSecret(config);
  return new SignJWT({
    tenant: claims.tenant,
    roles: claims.roles,
    resident: claims.resident,
    sid: claims.sid,
    ...(claims.mid === undefined ? {} : { mid: claims.mid, mv: claims.mv ?? 0 }),
    ...(claims.mid === undefined || claims.unit === undefined ? {} : { unit: claims.unit }),
  })
    .setProtectedHeader({ alg: ALG, typ: "JWT", kid })
    .setSubject(claims.sub)
    .setIssuer(config.JWT_ISSUER)
    .setAudience(config.JWT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresAt ?? `${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(await keyOf(secret));
}

const DUTY_NAMES = new Set<string>(DUTIES);

/** Claims that say one coherent thing: an operator (no tenant, no residency) or a member of one tenant. */
function claimedRoles(tenant: unknown, roles: unknown, resident: unknown): AccessClaims["roles"] | null {
  if (!Array.isArray(roles) || typeof resident !== "boolean" || new Set(roles).size !== roles.length) {
    return null;
  }
  if (tenant === null) {
    return roles.length === 1 && roles[0] === "super_admin" && !resident ? ["super_admin"] : null;
  }
  if (typeof tenant !== "string" || !roles.every((r) => typeof r === "string" && DUTY_NAMES.has(r))) {
    return null;
  }
  // A member with no duty is a resident (core/context.ts isResident), except one whose membership ended
  // with a move-out and is kept for its grace period (issue 45): no duty, no residency, so the token
  // reaches no route of the community, only the person's own (`/api/user/*`, the data export).
  return roles as Duty[];
}

/**
 * Tokens this isolate has already verified, per configuration (a rotated secret starts afresh), until
 * they expire: a resident's app sends the same token for up to 15 minutes, and a map lookup is far
 * cheaper than an HMAC. Bounded; the oldest entries go first.
 */
const verified = new WeakMap<Config, Map<string, { claims: AccessClaims; exp: number }>>();
const VERIFIED_MAX = 5000;

function remember(config: Config, token: string, claims: AccessClaims, exp: number): void {
  let byToken = verified.get(config);
  if (!byToken) {
    byToken = new Map();
    verified.set(config, byToken);
  }
  if (byToken.size >= VERIFIED_MAX) {
    const oldest = byToken.keys().next().value;
    if (oldest !== undefined) {
      byToken.delete(oldest);
    }
  }
  byToken.set(token, { claims, exp });
}

/**
 * Checks the signature with the key the header's `kid` names (the current or, during a rotation, the
 * previous secret); a `kid` this Worker does not hold is refused without trying any key. Tokens without
 * a `kid` (signed before key ids existed) are tried against each key in turn.
 */
async function verifiedPayload(config: Config, token: string): Promise<JWTPayload> {
  let kid: unknown;
  try {
    ({ kid } = decodeProtectedHeader(token));
  } catch {
    throw new Unauthorized("invalid_token", "The access token is invalid.");
  }
  const candidates = await secretsFor(config, kid);
  if (!candidates.length) {
    throw new Unauthorized("invalid_token", "The access token was signed with a key this API does not hold.");
  }
  return firstVerified(candidates, async (secret) => {
    const { payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: [ALG],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      requiredClaims: ["exp", "iat", "iss", "aud", "sub"],
      // A token lives 15 minutes: one claiming longer (an exp pushed out by a leaked key) is refused.
      maxTokenAge: ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS,
      clockTolerance: CLOCK_SKEW_SECONDS,
    });
    return payload;
  });
}

/**
 * Pins the algorithm (so `alg: none` or an RS/HS confusion cannot pass) and requires exp, iat, iss and
 * aud: jose only checks `exp` when the claim is present unless told to require it.
 */
export async function verifyAccessToken(config: Config, token: string): Promise<AccessClaims> {
  const hit = verified.get(config)?.get(token);
  if (hit) {
    if (hit.exp * 1000 > Date.now()) {
      return hit.claims;
    }
    verified.get(config)?.delete(token);
  }
  try {
    const payload = await verifiedPayload(config, token);
    if (Number(payload.iat) > Date.now() / 1000 + CLOCK_SKEW_SECONDS) {
      throw new Unauthorized("invalid_token", "The access token was issued in the future.");
    }
    if (Number(payload.exp) - Number(payload.iat) > ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS) {
      throw new Unauthorized("invalid_token", "The access token lives longer than any this API issues.");
    }
    const { sub, tenant, roles, resident, sid, mid, mv, unit } = payload as Record<string, unknown>;
    const checked = claimedRoles(tenant, roles, resident);
    const membership =
      mid === undefined
        ? mv === undefined
        : tenant !== null && typeof mid === "string" && Number.isSafeInteger(mv) && (mv as number) >= 0;
    const house =
      unit === undefined || ((typeof unit === "string" || unit === null) && typeof mid === "string");
    if (typeof sub !== "string" || typeof sid !== "string" || !checked || !membership || !house) {
      throw new Unauthorized("invalid_token", "The access token is malformed.");
    }
    const claims: AccessClaims = {
      sub,
      tenant: tenant as string | null,
      roles: checked,
      resident: resident as boolean,
      sid,
      ...(typeof mid === "string" ? { mid, mv: mv as number } : {}),
      ...(unit === undefined ? {} : { unit: unit as string | null }),
    };
    remember(config, token, claims, Number(payload.exp));
    return claims;
  } catch (error) {
    if (error instanceof Unauthorized) {
      throw error;
    }
    if (error instanceof joseErrors.JWTExpired) {
      throw new Unauthorized("token_expired", "The access token has expired.");
    }
    throw new Unauthorized("invalid_token", "The access token is invalid.");
  }
}
