import { importPKCS8, SignJWT } from "jose";
import type { FcmConfig } from "../../env";
import { parseJson } from "../http";
import type { FetchFn } from "../types";

export const FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
// Refresh a little early so a token never expires between our check and FCM's.
const EARLY_REFRESH_MS = 60_000;

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

export class TokenError extends Error {
  override name = "TokenError";
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = true,
  ) {
    super(message);
  }
}

// Per isolate: the token is good for an hour and Google rate-limits the exchange, so every push in this
// isolate shares one token until it is about to expire. Concurrent callers share one in-flight exchange.
const cache = new Map<string, CachedToken>();
const inflight = new Map<string, Promise<CachedToken>>();

async function exchange(
  config: FcmConfig,
  fetchFn: FetchFn,
  now: () => number,
  signal?: AbortSignal,
): Promise<CachedToken> {
  const key = await importPKCS8(config.privateKey, "RS256");
  const issuedAt = Math.floor(now() / 1000);
  const assertion = await new SignJWT({ scope: FCM_SCOPE })
    .setProtectedHeader({
      alg: "RS256",
      typ: "JWT",
      ...(config.privateKeyId ? { kid: config.privateKeyId } : {}),
    })
    .setIssuer(config.clientEmail)
    .setSubject(config.clientEmail)
    .setAudience(config.tokenUri)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 3600)
    .sign(key);
  let response: Response;
  try {
    response = await fetchFn(config.tokenUri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion,
      }).toString(),
      signal,
    });
  } catch (err) {
    throw new TokenError(`token endpoint unreachable: ${err instanceof Error ? err.message : String(err)}`);
  }
  const text = await response.text();
  const body = parseJson(text) as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (!response.ok || typeof body?.access_token !== "string") {
    throw new TokenError(
      `token exchange answered ${response.status}: ${text.slice(0, 300)}`,
      response.status,
    );
  }
  const expiresIn = typeof body.expires_in === "number" ? body.expires_in : 3600;
  return { accessToken: body.access_token, expiresAt: now() + expiresIn * 1000 };
}

export async function getAccessToken(
  config: FcmConfig,
  fetchFn: FetchFn,
  now: () => number = Date.now,
  signal?: AbortSignal,
): Promise<string> {
  const cacheKey = `${config.clientEmail}|${config.privateKeyId ?? ""}`;
  const cached = cache.get(cacheKey);
  if (cached && now() < cached.expiresAt - EARLY_REFRESH_MS) {
    return cached.accessToken;
  }
  let pending = inflight.get(cacheKey);
  if (!pending) {
    // The first caller's deadline bounds the shared exchange; a waiter whose own deadline is later just
    // retries its message if that one fires (no push was sent, so nothing is unknown).
    pending = exchange(config, fetchFn, now, signal).finally(() => inflight.delete(cacheKey));
    inflight.set(cacheKey, pending);
  }
  const fresh = await pending;
  cache.set(cacheKey, fresh);
  return fresh.accessToken;
}

export function forgetAccessToken(config: FcmConfig): void {
  cache.delete(`${config.clientEmail}|${config.privateKeyId ?? ""}`);
}
