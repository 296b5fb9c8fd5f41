import { env } from "cloudflare:workers";
import { base64url, exportSPKI, generateKeyPair, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/env";
import { signPass } from "../../src/modules/visitor/pass";
import { bindings, callJson, createTenant } from "../helpers/harness";
import { postSettled, sentMessage, tokenIn } from "../modules/identity/helpers";

/**
 * Issue 12, token forgeries: every token below is something an attacker could hold or make. Each is
 * presented as a bearer to a tenant route and to a user route; every one must be 401.
 */
const secret = new TextEncoder().encode(env.JWT_SECRET);
const ISS = env.JWT_ISSUER;
const AUD = env.JWT_AUDIENCE;
const now = () => Math.floor(Date.now() / 1000);
const text = (value: unknown) => base64url.encode(new TextEncoder().encode(JSON.stringify(value)));

let tenantSlug = "";
let admin = { id: "", email: "", token: "", refreshToken: "" };

beforeAll(async () => {
  const tenant = await createTenant();
  tenantSlug = tenant.slug;
  const member = await tenant.member("admin");
  const res = await callJson<{ accessToken: string; refreshToken: string }>("/api/auth/login", {
    body: { email: member.email, password: "kata-sandi-uji-2026", tenant: tenant.slug },
  });
  admin = {
    id: member.id,
    email: member.email,
    token: res.body.accessToken,
    refreshToken: res.body.refreshToken,
  };
});

function claims(extra: Record<string, unknown> = {}) {
  return {
    sub: admin.id,
    tenant: tenantSlug,
    role: "admin",
    sid: "01HZZZZZZZZZZZZZZZZZZZZZZZ",
    iss: ISS,
    aud: AUD,
    iat: now(),
    exp: now() + 600,
    ...extra,
  };
}

async function hs256(
  payload: Record<string, unknown>,
  key: Uint8Array = secret,
  header = { alg: "HS256", typ: "JWT" },
) {
  return new SignJWT(payload).setProtectedHeader(header).sign(key);
}

async function expectRefused(token: string) {
  for (const path of ["/api/kependudukan/units", "/api/user/me"]) {
    const res = await callJson(path, { token });
    expect(res.status, `${path} with ${token.slice(0, 40)}…`).toBe(401);
  }
}

describe("forged and misused bearer tokens are all 401", () => {
  it("accepts the real token (the baseline the forgeries are measured against)", async () => {
    expect((await callJson("/api/kependudukan/units", { token: admin.token })).status).toBe(200);
  });

  it("refuses alg none in every spelling", async () => {
    for (const alg of ["none", "None", "NONE", "nOnE"]) {
      await expectRefused(`${text({ alg, typ: "JWT" })}.${text(claims())}.`);
    }
  });

  it("refuses RS256 signed with an attacker's key, and HS256 keyed with a PEM", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    await expectRefused(await new SignJWT(claims()).setProtectedHeader({ alg: "RS256" }).sign(privateKey));
    const pem = new TextEncoder().encode(await exportSPKI(publicKey));
    await expectRefused(await hs256(claims(), pem));
  });

  it("refuses a token signed with another secret", async () => {
    await expectRefused(
      await hs256(claims(), new TextEncoder().encode("another-secret-of-the-same-length-0123")),
    );
  });

  it("refuses a real token whose role or tenant was edited", async () => {
    const [header, payload, signature] = admin.token.split(".");
    const body = JSON.parse(new TextDecoder().decode(base64url.decode(payload ?? "")));
    await expectRefused(`${header}.${text({ ...body, role: "super_admin", tenant: null })}.${signature}`);
    await expectRefused(`${header}.${text({ ...body, tenant: "rt-99-lain" })}.${signature}`);
  });

  it("refuses expired tokens, tokens from the future, and tokens that live too long", async () => {
    await expectRefused(await hs256(claims({ iat: now() - 3600, exp: now() - 60 })));
    await expectRefused(await hs256(claims({ iat: now() + 3600, exp: now() + 4200 })));
    await expectRefused(await hs256(claims({ iat: now(), exp: now() + 30 * 86_400 })));
  });

  it("refuses tokens missing exp or iat, or with a wrong audience or issuer", async () => {
    const { exp: _exp, ...noExp } = claims();
    const { iat: _iat, ...noIat } = claims();
    await expectRefused(await hs256(noExp));
    await expectRefused(await hs256(noIat));
    await expectRefused(await hs256(claims({ aud: "another-api" })));
    await expectRefused(await hs256(claims({ iss: "https://evil.example" })));
  });

  it("refuses a refresh token and a visitor's gate pass used as a bearer", async () => {
    await expectRefused(admin.refreshToken);
    const pass = await signPass(loadConfig(bindings), {
      tenant: tenantSlug,
      visitorId: "01HZZZZZZZZZZZZZZZZZZZZZZZ",
      issuedAt: new Date().toISOString(),
      validFrom: new Date(Date.now() - 60_000).toISOString(),
      validUntil: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await expectRefused(pass);
  });

  it("refuses a password-reset token presented as a magic link", async () => {
    const forgot = await postSettled("/api/auth/forgot-password", { email: admin.email });
    expect(forgot.status).toBe(202);
    const token = tokenIn(await sentMessage({ recipient: admin.email }));
    const res = await callJson("/api/auth/magic-link/verify", { body: { token } });
    expect(res.status).toBe(401);
  });
});
