import { exports } from "cloudflare:workers";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { callJson, createTenant, expectProblem } from "../../helpers/harness";
import type { Session } from "./helpers";

/**
 * Google faked at the fetch boundary, with the shapes its documentation gives: the token endpoint
 * (https://oauth2.googleapis.com/token) answers `{ access_token, expires_in, id_token, scope,
 * token_type }`, the JWKS (https://www.googleapis.com/oauth2/v3/certs) answers `{ keys: [JWK…] }`.
 * The ID token is signed with a key pair made here, announced in that JWKS.
 */
const ISSUER = "https://accounts.google.com";
const CLIENT_ID = "warga-test.apps.googleusercontent.com";
const KID = "test-key-1";
let privateKey: CryptoKey;
let jwks: { keys: Record<string, unknown>[] };

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  privateKey = pair.privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: KID, alg: "RS256", use: "sig" }] };
});

afterEach(() => {
  vi.restoreAllMocks();
});

interface IdClaims {
  email?: string;
  email_verified?: boolean;
  nonce?: string;
  iss?: string;
  aud?: string;
  exp?: number;
}

async function idToken(claims: IdClaims) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    email: claims.email,
    email_verified: claims.email_verified ?? true,
    nonce: claims.nonce,
  })
    .setProtectedHeader({ alg: "RS256", kid: KID, typ: "JWT" })
    .setSubject("110169484474386276334")
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? CLIENT_ID)
    .setIssuedAt(now - 5)
    .setExpirationTime(claims.exp ?? now + 3600)
    .sign(privateKey);
}

/** Installs the fake provider; `claims` may use the nonce the API sent in its authorization request. */
function fakeGoogle(claims: (nonce: string) => IdClaims | Promise<IdClaims>, nonce: () => string) {
  const requests: { url: string; body: string }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === "https://oauth2.googleapis.com/token") {
      requests.push({ url, body: String(init?.body ?? "") });
      return Response.json({
        access_token: "ya29.a0-fake-access-token",
        expires_in: 3599,
        id_token: await idToken(await claims(nonce())),
        scope: "openid https://www.googleapis.com/auth/userinfo.email",
        token_type: "Bearer",
      });
    }
    if (url === "https://www.googleapis.com/oauth2/v3/certs") {
      return Response.json(jwks);
    }
    return new Response("unexpected outbound call", { status: 599 });
  });
  return requests;
}

/** Like the harness's `call`, but a redirect is the answer under test, not something to follow. */
function call(path: string, init: { headers?: Record<string, string> } = {}) {
  return exports.default.fetch(new Request(`http://api.test${path}`, { ...init, redirect: "manual" }));
}

async function start(query = "") {
  const res = await call(`/api/auth/oauth/google${query}`);
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("Location") ?? "");
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  return {
    location,
    cookie,
    state: location.searchParams.get("state") ?? "",
    nonce: location.searchParams.get("nonce") ?? "",
  };
}

async function callback(flow: { cookie: string; state: string }, extra: Record<string, string> = {}) {
  const params = new URLSearchParams({ code: "4/0AfakeAuthorizationCode", state: flow.state, ...extra });
  const res = await call(`/api/auth/oauth/google/callback?${params}`, { headers: { Cookie: flow.cookie } });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("Location") ?? "");
}

describe("OpenID Connect sign-in (Google)", () => {
  it("redirects to the provider with PKCE S256, state and nonce, and sets the state cookie", async () => {
    const flow = await start();
    expect(`${flow.location.origin}${flow.location.pathname}`).toBe(
      "https://accounts.google.com/o/oauth2/v2/auth",
    );
    const q = flow.location.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe(CLIENT_ID);
    expect(q.get("redirect_uri")).toBe("http://127.0.0.1:8787/api/auth/oauth/google/callback");
    expect(q.get("scope")).toBe("openid email profile");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(flow.state).toMatch(/^[\w-]{43}$/);
    expect(flow.nonce).toMatch(/^[\w-]{43}$/);
    expect(flow.cookie).toBe(`warga_oauth_state=${flow.state}`);
  });

  it("signs in the account with the verified email through a one-time exchange code", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("sekretaris");
    const flow = await start(`?tenant=${tenant.slug}`);
    const requests = fakeGoogle(
      (nonce) => ({ email: member.email, nonce }),
      () => flow.nonce,
    );
    const landing = await callback(flow);
    expect(`${landing.origin}${landing.pathname}`).toBe("http://app.test/auth/callback");
    const code = landing.searchParams.get("code") ?? "";
    expect(code).toMatch(/^[\w-]{43}$/);
    expect(landing.toString()).not.toContain("accessToken");

    // The code exchange carried the PKCE verifier that matches the challenge.
    const form = new URLSearchParams(requests[0]?.body);
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("client_secret")).toBe("test-google-client-secret");
    const verifier = form.get("code_verifier") ?? "";
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    const challenge = btoa(String.fromCharCode(...digest))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    expect(flow.location.searchParams.get("code_challenge")).toBe(challenge);

    const session = await callJson<Session>("/api/auth/oauth/exchange", { body: { code } });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({
      id: member.id,
      roles: ["sekretaris"],
      tenant: { slug: tenant.slug },
    });
    expectProblem(await callJson("/api/auth/oauth/exchange", { body: { code } }), 401, "token_used");
  });

  it("refuses an ID token with the wrong nonce", async () => {
    const member = await (await createTenant()).member("warga");
    const flow = await start();
    fakeGoogle(
      () => ({ email: member.email, nonce: "someone-elses-nonce" }),
      () => flow.nonce,
    );
    expect((await callback(flow)).searchParams.get("error")).toBe("nonce_mismatch");
  });

  it("refuses an ID token from another issuer", async () => {
    const member = await (await createTenant()).member("warga");
    const flow = await start();
    fakeGoogle(
      (nonce) => ({ email: member.email, nonce, iss: "https://evil.example" }),
      () => flow.nonce,
    );
    const landing = await callback(flow);
    expect(landing.searchParams.get("error")).toBe("id_token_invalid");
    expect(landing.searchParams.get("code")).toBeNull();
  });

  it("refuses an ID token for another client (audience)", async () => {
    const member = await (await createTenant()).member("warga");
    const flow = await start();
    fakeGoogle(
      (nonce) => ({ email: member.email, nonce, aud: "another-app" }),
      () => flow.nonce,
    );
    expect((await callback(flow)).searchParams.get("error")).toBe("id_token_invalid");
  });

  it("refuses an expired ID token", async () => {
    const member = await (await createTenant()).member("warga");
    const flow = await start();
    const past = Math.floor(Date.now() / 1000) - 60;
    fakeGoogle(
      (nonce) => ({ email: member.email, nonce, exp: past }),
      () => flow.nonce,
    );
    expect((await callback(flow)).searchParams.get("error")).toBe("id_token_expired");
  });

  it("does not register an unknown email, nor accept an unverified one", async () => {
    const flow = await start();
    fakeGoogle(
      (nonce) => ({ email: "orang-baru@gmail.test", nonce }),
      () => flow.nonce,
    );
    expect((await callback(flow)).searchParams.get("error")).toBe("account_not_found");

    const member = await (await createTenant()).member("warga");
    const second = await start();
    vi.restoreAllMocks();
    fakeGoogle(
      (nonce) => ({ email: member.email, nonce, email_verified: false }),
      () => second.nonce,
    );
    expect((await callback(second)).searchParams.get("error")).toBe("email_not_verified");
  });

  it("refuses a callback without the state cookie, or a state used twice", async () => {
    const member = await (await createTenant()).member("warga");
    const flow = await start();
    fakeGoogle(
      (nonce) => ({ email: member.email, nonce }),
      () => flow.nonce,
    );
    expect((await callback({ ...flow, cookie: "" })).searchParams.get("error")).toBe("state_mismatch");
    expect((await callback(flow)).searchParams.get("code")).toMatch(/^[\w-]{43}$/);
    expect((await callback(flow)).searchParams.get("error")).toBe("invalid_state");
  });

  it("passes a provider's refusal on, and answers 404 for an unknown provider", async () => {
    const flow = await start();
    expect((await callback(flow, { error: "access_denied" })).searchParams.get("error")).toBe(
      "access_denied",
    );
    expectProblem(await callJson("/api/auth/oauth/facebook"), 404, "provider_not_found");
  });
});
