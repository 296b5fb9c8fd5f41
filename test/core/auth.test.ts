import { env } from "cloudflare:workers";
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it, vi } from "vitest";
import { keyIdOf } from "../../src/core/auth/keyring";
import { type AccessClaims, signAccessToken, verifyAccessToken } from "../../src/core/auth/tokens";
import { type Bindings, loadConfig } from "../../src/core/env";
import { Unauthorized } from "../../src/core/errors";
import { log } from "../../src/core/http/log";
import { passCode, signPass, verifyPass } from "../../src/modules/visitor/pass";
import {
  bindings,
  callJson,
  createTenant,
  expectProblem,
  insertUser,
  login,
  PASSWORD,
} from "../helpers/harness";

const secret = new TextEncoder().encode(env.JWT_SECRET);
const ISS = "https://api.warga.local";
const AUD = "warga-api";

async function forged(
  claims: Record<string, unknown>,
  opts: { iss?: string; aud?: string; exp?: string | number; key?: Uint8Array } = {},
) {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.sub ?? "u1"))
    .setIssuedAt();
  jwt
    .setIssuer(opts.iss ?? ISS)
    .setAudience(opts.aud ?? AUD)
    .setExpirationTime(opts.exp ?? "15m");
  return jwt.sign(opts.key ?? secret);
}

describe("POST /api/auth/login", () => {
  it("signs a member in with tokens and the user's tenant and role", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("sekretaris");
    const res = await callJson<{
      accessToken: string;
      refreshToken: string;
      expiresIn: number;
      user: Record<string, unknown>;
    }>("/api/auth/login", { body: { email: member.email.toUpperCase(), password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.expiresIn).toBe(900);
    expect(res.body.refreshToken.length).toBeGreaterThanOrEqual(43);
    expect(res.body.user).toMatchObject({
      id: member.id,
      email: member.email,
      roles: ["sekretaris"],
      resident: false,
      tenant: { slug: tenant.slug, type: "RT" },
    });
    const me = await callJson("/api/user/me", { token: res.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: member.id,
      roles: ["sekretaris"],
      resident: false,
      tenant: { slug: tenant.slug },
      profileComplete: false,
    });
  });

  it("answers the same 401 for a wrong password and an unknown email", async () => {
    const user = await insertUser({});
    const wrong = await callJson("/api/auth/login", {
      body: { email: user.email, password: "salah-sekali" },
    });
    const unknown = await callJson("/api/auth/login", {
      body: { email: "siapa@warga.test", password: "salah-sekali" },
    });
    expectProblem(wrong, 401, "invalid_credentials");
    expectProblem(unknown, 401, "invalid_credentials");
    expect((wrong.body as { detail: string }).detail).toBe((unknown.body as { detail: string }).detail);
  });

  it("signs an operator in without a tenant", async () => {
    const op = await insertUser({ platformRole: "super_admin" });
    const res = await callJson<{ user: { roles: string[]; tenant: unknown } }>("/api/auth/login", {
      body: { email: op.email, password: PASSWORD },
    });
    expect(res.body.user).toMatchObject({ roles: ["super_admin"], resident: false, tenant: null });
  });

  it("refuses a tenant the user is not a member of", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const member = await a.member("warga");
    const res = await callJson("/api/auth/login", {
      body: { email: member.email, password: PASSWORD, tenant: b.slug },
    });
    expectProblem(res, 403, "no_membership");
  });
});

describe("access token verification", () => {
  it("accepts a valid token", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    // Identity's routes also ask whether the sign-in (`sid`) is live: name the member's real one.
    const { sid } = decodeJwt(member.token);
    const token = await forged({ sub: member.id, tenant: tenant.slug, roles: [], resident: true, sid });
    expect((await callJson("/api/user/me", { token })).status).toBe(200);
  });

  it("rejects an expired token with token_expired", async () => {
    const token = await forged(
      { tenant: "x", roles: [], resident: true, sid: "s" },
      { exp: Math.floor(Date.now() / 1000) - 60 },
    );
    expectProblem(await callJson("/api/user/me", { token }), 401, "token_expired");
  });

  it("rejects a token signed with another key", async () => {
    const token = await forged(
      { tenant: "x", roles: [], resident: true, sid: "s" },
      { key: new TextEncoder().encode("another-secret-another-secret-another") },
    );
    expectProblem(await callJson("/api/user/me", { token }), 401, "invalid_token");
  });

  it("rejects alg: none", async () => {
    const token = new UnsecuredJWT({ tenant: "x", roles: ["admin"], resident: false, sid: "s" })
      .setSubject("u1")
      .setIssuer(ISS)
      .setAudience(AUD)
      .setIssuedAt()
      .setExpirationTime("15m")
      .encode();
    expectProblem(await callJson("/api/user/me", { token }), 401, "invalid_token");
  });

  it("rejects a wrong audience or issuer", async () => {
    const aud = await forged({ tenant: "x", roles: [], resident: true, sid: "s" }, { aud: "another-api" });
    expectProblem(await callJson("/api/user/me", { token: aud }), 401, "invalid_token");
    const iss = await forged(
      { tenant: "x", roles: [], resident: true, sid: "s" },
      { iss: "https://evil.example" },
    );
    expectProblem(await callJson("/api/user/me", { token: iss }), 401, "invalid_token");
  });

  it("rejects a token without exp", async () => {
    const token = await new SignJWT({ tenant: "x", roles: [], resident: true, sid: "s" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("u1")
      .setIssuer(ISS)
      .setAudience(AUD)
      .setIssuedAt()
      .sign(secret);
    expectProblem(await callJson("/api/user/me", { token }), 401, "invalid_token");
  });

  it("rejects a missing or non-bearer Authorization header", async () => {
    expectProblem(await callJson("/api/user/me"), 401, "unauthorized");
    expectProblem(
      await callJson("/api/user/me", { headers: { Authorization: "Basic abc" } }),
      401,
      "unauthorized",
    );
  });

  it("refuses a tenant token that claims the operator role", async () => {
    const token = await forged({ tenant: "rt-01", roles: ["super_admin"], resident: false, sid: "s" });
    expectProblem(await callJson("/api/user/me", { token }), 401, "invalid_token");
  });

  it("lets a real login token through and keeps the session id", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("admin");
    const token = await login(member.email, tenant.slug);
    const [, payload] = token.split(".");
    const claims = JSON.parse(atob((payload ?? "").replace(/-/g, "+").replace(/_/g, "/")));
    expect(claims).toMatchObject({
      sub: member.id,
      tenant: tenant.slug,
      roles: ["admin"],
      resident: false,
      iss: ISS,
      aud: AUD,
    });
    expect(claims.sid).toMatch(/^[0-9A-Z]{26}$/);
    expect(claims.exp - claims.iat).toBe(900);
    // Signed with JWT_SECRET, named by its key id.
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "HS256", kid: await keyIdOf(env.JWT_SECRET) });
  });
});

describe("JWT key rotation (JWT_SECRET_PREVIOUS)", () => {
  const OLD = "old-jwt-secret-that-is-long-enough-0123456789";
  const NEW = "new-jwt-secret-that-is-long-enough-9876543210";
  const configWith = (secrets: { JWT_SECRET: string; JWT_SECRET_PREVIOUS?: string }) =>
    loadConfig({ ...bindings, JWT_SECRET_PREVIOUS: undefined, ...secrets } as Bindings);
  const beforeRotation = () => configWith({ JWT_SECRET: OLD });
  const overlap = () => configWith({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD });
  const afterOverlap = () => configWith({ JWT_SECRET: NEW });
  const claims: AccessClaims = {
    sub: "01USER",
    tenant: "rt-01",
    roles: [],
    resident: true,
    sid: "01SESSION",
  };
  const refused = async (promise: Promise<unknown>, code = "invalid_token") => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Unauthorized);
    expect((error as Unauthorized).code).toBe(code);
  };

  it("a token signed with the previous key verifies during the overlap and fails once it is removed", async () => {
    const token = await signAccessToken(beforeRotation(), claims);
    expect(decodeProtectedHeader(token).kid).toBe(await keyIdOf(OLD));
    expect(await verifyAccessToken(overlap(), token)).toEqual(claims);
    await refused(verifyAccessToken(afterOverlap(), token));
  });

  it("new tokens carry the new key's id and verify with it alone", async () => {
    const token = await signAccessToken(overlap(), claims);
    const kid = decodeProtectedHeader(token).kid;
    expect(kid).toBe(await keyIdOf(NEW));
    expect(kid).not.toBe(await keyIdOf(OLD));
    expect(kid).toMatch(/^[0-9a-f]{16}$/);
    expect(kid).not.toContain(NEW.slice(0, 8));
    expect(await verifyAccessToken(afterOverlap(), token)).toEqual(claims);
    await refused(verifyAccessToken(beforeRotation(), token));
  });

  it("a forged or retired kid fails: the kid picks one key and no other is tried", async () => {
    const sign = (key: string, kid?: string) =>
      new SignJWT({ tenant: claims.tenant, roles: claims.roles, resident: claims.resident, sid: claims.sid })
        .setProtectedHeader(kid === undefined ? { alg: "HS256" } : { alg: "HS256", kid })
        .setSubject(claims.sub)
        .setIssuer(ISS)
        .setAudience(AUD)
        .setIssuedAt()
        .setExpirationTime("15m")
        .sign(new TextEncoder().encode(key));
    // Signed with the previous key but claiming the current key's id.
    await refused(verifyAccessToken(overlap(), await sign(OLD, await keyIdOf(NEW))));
    // A key id this Worker does not hold, with either real key.
    await refused(verifyAccessToken(overlap(), await sign(NEW, "0123456789abcdef")));
    await refused(verifyAccessToken(overlap(), await sign(OLD, "0123456789abcdef")));
    // An attacker's key under a real key id.
    const evil = "attacker-secret-that-is-long-enough-000000000";
    await refused(verifyAccessToken(overlap(), await sign(evil, await keyIdOf(OLD))));
    await refused(verifyAccessToken(overlap(), await sign(evil)));
    // Without a kid (signed before key ids existed) each held key is tried.
    expect(await verifyAccessToken(overlap(), await sign(OLD))).toEqual(claims);
    expect(await verifyAccessToken(overlap(), await sign(NEW))).toEqual(claims);
    await refused(verifyAccessToken(afterOverlap(), await sign(OLD)));
  });

  it("visitor passes follow the same overlap", async () => {
    const now = new Date();
    const window = {
      validFrom: new Date(now.getTime() - 3_600_000).toISOString(),
      validUntil: new Date(now.getTime() + 3_600_000).toISOString(),
    };
    const pass = await signPass(beforeRotation(), {
      tenant: "rt-01",
      visitorId: "01VISITOR",
      issuedAt: now.toISOString(),
      ...window,
    });
    expect(decodeProtectedHeader(pass).kid).toBe(await keyIdOf(OLD));
    expect(await verifyPass(overlap(), pass, "rt-01", now)).toBe("01VISITOR");
    await expect(verifyPass(afterOverlap(), pass, "rt-01", now)).rejects.toMatchObject({
      code: "invalid_pass",
    });
    const renewed = await signPass(overlap(), {
      tenant: "rt-01",
      visitorId: "01VISITOR",
      issuedAt: now.toISOString(),
      ...window,
    });
    expect(decodeProtectedHeader(renewed).kid).toBe(await keyIdOf(NEW));
    expect(await verifyPass(afterOverlap(), renewed, "rt-01", now)).toBe("01VISITOR");
  });

  it("keeps a pass and its code once made, and makes another for any other claim, issuer or secret", async () => {
    const config = beforeRotation();
    const now = new Date();
    const claims = {
      tenant: "rt-01",
      visitorId: "01VISITORKEPT",
      issuedAt: now.toISOString(),
      validFrom: new Date(now.getTime() - 3_600_000).toISOString(),
      validUntil: new Date(now.getTime() + 3_600_000).toISOString(),
    };
    const first = await signPass(config, claims);
    const code = await passCode(config, first);
    const sign = vi.spyOn(crypto.subtle, "sign");
    try {
      // Made again: the same strings, and no MAC computed.
      expect(await signPass(config, claims)).toBe(first);
      expect(await passCode(config, first)).toBe(code);
      expect(sign).not.toHaveBeenCalled();
    } finally {
      sign.mockRestore();
    }
    const others = [
      await signPass(config, { ...claims, tenant: "rt-02" }),
      await signPass(config, { ...claims, visitorId: "01VISITOROTHER" }),
      await signPass(config, { ...claims, issuedAt: new Date(now.getTime() + 1000).toISOString() }),
      await signPass(config, { ...claims, validFrom: now.toISOString() }),
      await signPass(config, { ...claims, validUntil: new Date(now.getTime() + 7_200_000).toISOString() }),
      await signPass({ ...config, JWT_ISSUER: "https://other.example" }, claims),
      await signPass(configWith({ JWT_SECRET: NEW }), claims),
    ];
    expect(new Set([first, ...others]).size).toBe(others.length + 1);
    expect(await passCode(configWith({ JWT_SECRET: NEW }), first)).not.toBe(code);
  });

  it("checks the previous secret's length, ignores it when empty, and redacts it from logs", () => {
    expect(() => configWith({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: "too-short" })).toThrow(
      /JWT_SECRET_PREVIOUS/,
    );
    expect(configWith({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: "" }).JWT_SECRET_PREVIOUS).toBeUndefined();
    overlap();
    const lines: string[] = [];
    const spy = vi.spyOn(console, "warn").mockImplementation((line: string) => {
      lines.push(line);
    });
    try {
      log("warn", "rotation_check", { detail: `previous ${OLD} current ${NEW}` });
    } finally {
      spy.mockRestore();
      loadConfig(bindings);
    }
    expect(lines.join("\n")).not.toContain(OLD);
    expect(lines.join("\n")).not.toContain(NEW);
  });
});
