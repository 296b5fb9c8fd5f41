import { and, eq, gt, isNull } from "drizzle-orm";
import { errors as joseErrors, jwtVerify } from "jose";
import { z } from "zod";
import type { PlatformCtx, ServiceEnv } from "../../../core/context";
import { oauthStates, users } from "../../../core/db/identity-schema";
import { rowById } from "../../../core/db/rows";
import { clientUrl } from "../../../core/env";
import { Unauthorized } from "../../../core/errors";
import { log } from "../../../core/http/log";
import { base64url, newId, randomToken, sha256Hex, timingSafeEqualText } from "../../../core/ids";
import { identityRateLimit as rateLimit } from "../limits";
import { consumeOneTimeToken, newOneTimeToken } from "../oneTimeTokens";
import { signIn } from "../sessions";
import { jwksFor, type OidcProvider, providerFor } from "./providers";

/**
 * Authorization code flow with PKCE (S256), `state` and `nonce`:
 * 1. start: a random state, nonce and code verifier are stored (state hashed); the browser also gets
 *    the state in a cookie, so a callback carrying someone else's state (login CSRF) is refused.
 * 2. callback: the state is spent once, the code exchanged with the verifier, the ID token verified
 *    against the provider's JWKS (signature, issuer, audience, expiry) and its nonce checked.
 * 3. the verified email must belong to an existing account: nobody is registered by signing in.
 * 4. the browser is sent to the client with a one-time code that POST /api/auth/oauth/exchange turns
 *    into tokens, so no token ever appears in a URL, a history entry or a referrer.
 */

export const STATE_COOKIE = "warga_oauth_state";
const STATE_TTL_SECONDS = 10 * 60;

export function callbackUrl(env: Pick<ServiceEnv, "APP_URL">, provider: string): string {
  return `${env.APP_URL.replace(/\/$/, "")}/api/auth/oauth/${provider}/callback`;
}

function clientCallbackUrl(
  env: Pick<ServiceEnv, "APP_URL" | "CLIENT_URL">,
  params: Record<string, string>,
): string {
  const url = new URL(`${clientUrl(env)}/auth/callback`);
  for (const [key, value] of Object.entries(params)) {
    url.searchParams.set(key, value);
  }
  return url.toString();
}

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export async function startOAuth({
  ctx,
  input: { provider: name, tenant },
}: {
  ctx: PlatformCtx;
  input: { provider: string; tenant?: string };
}): Promise<{ location: string; state: string }> {
  const provider = providerFor(ctx.env, name);
  const state = randomToken(32);
  const nonce = randomToken(32);
  const codeVerifier = randomToken(32);
  await ctx.platform.insert(oauthStates).values({
    id: newId(),
    stateHash: await sha256Hex(state),
    provider: name,
    codeVerifier,
    nonce,
    tenant: tenant ?? null,
    expiresAt: new Date(ctx.now().getTime() + STATE_TTL_SECONDS * 1000).toISOString(),
  });
  const url = new URL(provider.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", callbackUrl(ctx.env, name));
  url.searchParams.set("scope", provider.scopes);
  url.searchParams.set("state", state);
  url.searchParams.set("nonce", nonce);
  url.searchParams.set("code_challenge", await s256(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  return { location: url.toString(), state };
}

/** The token endpoint's answer (RFC 6749 §5.1 plus OIDC's `id_token`); only the ID token is used. */
const TokenResponse = z.object({
  id_token: z.string().min(1),
  token_type: z.string().optional(),
  access_token: z.string().optional(),
  expires_in: z.number().optional(),
  scope: z.string().optional(),
});

class CallbackFailure extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

async function exchangeCode(env: ServiceEnv, provider: OidcProvider, code: string, codeVerifier: string) {
  let response: Response;
  try {
    response = await fetch(provider.tokenEndpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: callbackUrl(env, provider.name),
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code_verifier: codeVerifier,
      }),
    });
  } catch {
    throw new CallbackFailure("provider_unavailable");
  }
  if (!response.ok) {
    throw new CallbackFailure("code_exchange_failed");
  }
  const parsed = TokenResponse.safeParse(await response.json().catch(() => null));
  if (!parsed.success) {
    throw new CallbackFailure("code_exchange_failed");
  }
  return parsed.data.id_token;
}

async function verifyIdToken(provider: OidcProvider, idToken: string, nonce: string) {
  try {
    const { payload } = await jwtVerify(idToken, jwksFor(provider), {
      issuer: provider.issuer,
      audience: provider.clientId,
      algorithms: provider.algorithms,
      requiredClaims: ["iss", "sub", "aud", "exp", "iat"],
    });
    if (typeof payload.nonce !== "string" || !timingSafeEqualText(payload.nonce, nonce)) {
      throw new CallbackFailure("nonce_mismatch");
    }
    // OIDC Core: with several audiences, the authorised party must be us.
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== provider.clientId) {
      throw new CallbackFailure("id_token_invalid");
    }
    const verified = payload.email_verified === true || payload.email_verified === "true";
    if (typeof payload.email !== "string" || !verified) {
      throw new CallbackFailure("email_not_verified");
    }
    return payload.email.trim().toLowerCase();
  } catch (error) {
    if (error instanceof CallbackFailure) {
      throw error;
    }
    if (error instanceof joseErrors.JWTExpired) {
      throw new CallbackFailure("id_token_expired");
    }
    throw new CallbackFailure("id_token_invalid");
  }
}

/**
 * Always ends in a redirect to the client: `?code=` on success, `?error=` (a stable code) otherwise,
 * because the browser, not an API client, is on the other end.
 */
export async function finishOAuth({
  ctx,
  input: { provider: name, query, cookieState },
}: {
  ctx: PlatformCtx;
  input: {
    provider: string;
    query: { code?: string; state?: string; error?: string };
    /** The state the browser was given at the start (cookie), to match against the callback's. */
    cookieState: string | undefined;
  };
}): Promise<string> {
  try {
    const provider = providerFor(ctx.env, name);
    if (query.error) {
      throw new CallbackFailure(query.error === "access_denied" ? "access_denied" : "provider_error");
    }
    if (!query.code || !query.state) {
      throw new CallbackFailure("invalid_request");
    }
    if (!cookieState || !timingSafeEqualText(cookieState, query.state)) {
      throw new CallbackFailure("state_mismatch");
    }
    const db = ctx.platform;
    const now = ctx.now().toISOString();
    const flow = await db
      .update(oauthStates)
      .set({ usedAt: now })
      .where(
        and(
          eq(oauthStates.stateHash, await sha256Hex(query.state)),
          eq(oauthStates.provider, name),
          isNull(oauthStates.usedAt),
          gt(oauthStates.expiresAt, now),
        ),
      )
      .returning()
      .get();
    if (!flow) {
      throw new CallbackFailure("invalid_state");
    }
    const idToken = await exchangeCode(ctx.env, provider, query.code, flow.codeVerifier);
    const email = await verifyIdToken(provider, idToken, flow.nonce);
    const user = await db.select().from(users).where(eq(users.email, email)).get();
    if (user?.status !== "active") {
      throw new CallbackFailure("account_not_found");
    }
    const issued = await newOneTimeToken(ctx, {
      purpose: "oauth_exchange",
      userId: user.id,
      data: { tenant: flow.tenant },
    });
    await db.batch([issued.insert]);
    return clientCallbackUrl(ctx.env, { code: issued.token });
  } catch (error) {
    if (error instanceof CallbackFailure) {
      log("warn", "oauth_callback_refused", { requestId: ctx.requestId, provider: name, reason: error.code });
      return clientCallbackUrl(ctx.env, { error: error.code });
    }
    if (error instanceof Error && "code" in error && typeof error.code === "string") {
      // Domain errors (unknown or unconfigured provider) still end at the client, not in a JSON page.
      return clientCallbackUrl(ctx.env, { error: error.code });
    }
    throw error;
  }
}

export async function exchangeOAuthCode({ ctx, input }: { ctx: PlatformCtx; input: { code: string } }) {
  await rateLimit(ctx.env, [{ policy: "token-exchange:ip", subject: ctx.ip }]);
  const db = ctx.platform;
  const result = await consumeOneTimeToken(ctx, ["oauth_exchange"], input.code);
  if (!result.ok) {
    throw new Unauthorized(result.reason, "This sign-in code is not valid, expired or already used.");
  }
  const user = await rowById(db, users, result.userId);
  if (!user) {
    throw new Unauthorized("token_invalid", "This sign-in code is not valid.");
  }
  return signIn(ctx, user, result.data.tenant);
}
