import { describe, expect, it } from "vitest";
import { memberships } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import { bindings, callJson, createTenant, expectProblem, PASSWORD } from "../../helpers/harness";
import type { Session } from "./helpers";

/**
 * The web app's sessions (ADR 0041): the refresh token as an HttpOnly cookie on the refresh and sign-out
 * routes, asked for with `X-Warga-Client: web` from the site's own origin; every other client keeps the
 * bearer contract (the token in the body) unchanged.
 */
const WEB = { "X-Warga-Client": "web", Origin: "http://api.test" };

/** The `warga_refresh` Set-Cookie lines of an answer, one per Path. */
function refreshCookies(headers: Headers): string[] {
  return headers.getSetCookie().filter((c) => c.startsWith("warga_refresh="));
}

const cookieValue = (setCookie: string) => setCookie.slice("warga_refresh=".length).split(";")[0] ?? "";

async function webSignIn() {
  const tenant = await createTenant();
  const member = await tenant.member("warga");
  const res = await callJson<Session>("/api/auth/login", {
    headers: WEB,
    body: { email: member.email, password: PASSWORD },
  });
  expect(res.status).toBe(200);
  const cookies = refreshCookies(res.headers);
  return { tenant, member, res, cookie: `warga_refresh=${cookieValue(cookies[0] ?? "")}` };
}

describe("the web app's refresh cookie", () => {
  it("is set on sign-in only when asked, HttpOnly, Secure, SameSite=Strict, scoped to refresh and sign-out", async () => {
    const { res, member } = await webSignIn();
    const cookies = refreshCookies(res.headers);
    expect(cookies).toHaveLength(2);
    for (const [i, path] of ["/api/auth/refresh", "/api/auth/logout"].entries()) {
      const cookie = cookies[i] ?? "";
      expect(cookie).toContain(`Path=${path}`);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("Secure");
      expect(cookie).toContain("SameSite=Strict");
      expect(cookie).toMatch(/Max-Age=2592000/);
      expect(cookieValue(cookie).length).toBeGreaterThanOrEqual(43);
    }
    // The page reads the body: no refresh token in it, the access token and the person are there.
    expect(res.body.refreshToken).toBeUndefined();
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.user.id).toBe(member.id);

    // Without the header: today's contract, the token in the body and no cookie.
    const mobile = await callJson<Session>("/api/auth/login", {
      body: { email: member.email, password: PASSWORD },
    });
    expect(mobile.status).toBe(200);
    expect(mobile.body.refreshToken).toEqual(expect.any(String));
    expect(refreshCookies(mobile.headers)).toEqual([]);
  });

  it("refreshes from the cookie and rotates it; the spent cookie then ends the session", async () => {
    const { cookie, member } = await webSignIn();
    const next = await callJson<Session>("/api/auth/refresh", {
      headers: { ...WEB, Cookie: cookie },
      body: {},
    });
    expect(next.status).toBe(200);
    expect(next.body.refreshToken).toBeUndefined();
    expect(next.body.user.id).toBe(member.id);
    const rotated = refreshCookies(next.headers);
    expect(rotated).toHaveLength(2);
    expect(`warga_refresh=${cookieValue(rotated[0] ?? "")}`).not.toBe(cookie);
    expect((await callJson("/api/user/me", { token: next.body.accessToken })).status).toBe(200);

    const reused = await callJson("/api/auth/refresh", { headers: { ...WEB, Cookie: cookie }, body: {} });
    expectProblem(reused, 401, "refresh_token_reused");
  });

  it("answers 401 to a web refresh with no cookie (a reload of a signed-out browser)", async () => {
    const res = await callJson("/api/auth/refresh", { headers: WEB, body: {} });
    expectProblem(res, 401, "invalid_refresh_token");
  });

  it("signs out from the cookie: the session is revoked and the cookie cleared on both paths", async () => {
    const { cookie, res: signedIn } = await webSignIn();
    const out = await callJson("/api/auth/logout", { headers: { ...WEB, Cookie: cookie }, body: {} });
    expect(out.status).toBe(204);
    const cleared = refreshCookies(out.headers);
    expect(cleared).toHaveLength(2);
    for (const c of cleared) {
      expect(cookieValue(c)).toBe("");
      expect(c).toContain("Max-Age=0");
    }
    const after = await callJson("/api/auth/refresh", { headers: { ...WEB, Cookie: cookie }, body: {} });
    expect(after.status).toBe(401);
    // The access token of the ended session stops at once on routes that check liveness.
    expect((await callJson("/api/user/me", { token: signedIn.body.accessToken })).status).toBe(401);
    // Signing out again, or with no cookie at all, is still a clean 204.
    expect((await callJson("/api/auth/logout", { headers: WEB, body: {} })).status).toBe(204);
  });

  it("refuses cookie requests without the header or from another origin (CSRF)", async () => {
    const { cookie } = await webSignIn();
    // The cookie alone is no credential: without the header the body contract applies, and it is empty.
    const noHeader = await callJson("/api/auth/refresh", { headers: { Cookie: cookie }, body: {} });
    expectProblem(noHeader, 400, "invalid_input");
    const foreign = await callJson("/api/auth/refresh", {
      headers: { ...WEB, Origin: "https://evil.example", Cookie: cookie },
      body: {},
    });
    expectProblem(foreign, 403, "origin_refused");
    const noOrigin = await callJson("/api/auth/refresh", {
      headers: { "X-Warga-Client": "web", Cookie: cookie },
      body: {},
    });
    expectProblem(noOrigin, 403, "origin_refused");
    const foreignLogout = await callJson("/api/auth/logout", {
      headers: { ...WEB, Origin: "https://evil.example", Cookie: cookie },
      body: {},
    });
    expectProblem(foreignLogout, 403, "origin_refused");
    const foreignLogin = await callJson("/api/auth/login", {
      headers: { ...WEB, Origin: "https://evil.example" },
      body: { email: "x@warga.test", password: PASSWORD },
    });
    expectProblem(foreignLogin, 403, "origin_refused");
    // None of that spent the token: the real app still refreshes with it.
    const ok = await callJson("/api/auth/refresh", { headers: { ...WEB, Cookie: cookie }, body: {} });
    expect(ok.status).toBe(200);
  });

  it("keeps the bearer contract: refresh and logout with the token in the body, which they still require", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const first = await callJson<Session>("/api/auth/login", {
      body: { email: member.email, password: PASSWORD },
    });
    const second = await callJson<Session>("/api/auth/refresh", {
      body: { refreshToken: first.body.refreshToken },
    });
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).toEqual(expect.any(String));
    expect(refreshCookies(second.headers)).toEqual([]);
    expectProblem(await callJson("/api/auth/refresh", { body: {} }), 400, "invalid_input");
    expectProblem(await callJson("/api/auth/logout", { body: {} }), 400, "invalid_input");
    const out = await callJson("/api/auth/logout", { body: { refreshToken: second.body.refreshToken } });
    expect(out.status).toBe(204);
    expect(refreshCookies(out.headers)).toEqual([]);
  });

  it("sets the cookie when switching community in the web app", async () => {
    const { member, res, cookie, tenant } = await webSignIn();
    const other = await createTenant();
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: member.id, tenantId: other.id, roles: ["sekretaris"] });
    const switched = await callJson<Session>("/api/auth/switch-tenant", {
      headers: WEB,
      token: res.body.accessToken,
      body: { tenant: other.slug },
    });
    expect(switched.status).toBe(200);
    expect(switched.body.refreshToken).toBeUndefined();
    expect(switched.body.user.tenant?.slug).toBe(other.slug);
    const fresh = refreshCookies(switched.headers);
    expect(fresh).toHaveLength(2);
    // The first community's session is over; the new cookie refreshes into the new community.
    expect(
      (await callJson("/api/auth/refresh", { headers: { ...WEB, Cookie: cookie }, body: {} })).status,
    ).toBe(401);
    const again = await callJson<Session>("/api/auth/refresh", {
      headers: { ...WEB, Cookie: `warga_refresh=${cookieValue(fresh[0] ?? "")}` },
      body: {},
    });
    expect(again.status).toBe(200);
    expect(again.body.user.tenant?.slug).toBe(other.slug);
    expect(again.body.user.tenant?.slug).not.toBe(tenant.slug);
  });
});

describe("signing out everywhere else", () => {
  it("ends every other session of the account (web and mobile, any community), keeps the caller's, and no one else's", async () => {
    const { member, res, cookie } = await webSignIn();
    const mobile = await callJson<Session>("/api/auth/login", {
      body: { email: member.email, password: PASSWORD },
    });
    const here = await callJson<Session>("/api/auth/login", {
      headers: WEB,
      body: { email: member.email, password: PASSWORD },
    });
    const neighbour = await (await createTenant()).member("warga");
    const other = await callJson<Session>("/api/auth/login", {
      body: { email: neighbour.email, password: PASSWORD },
    });

    const out = await callJson<{ ended: number }>("/api/auth/logout/others", {
      method: "POST",
      token: here.body.accessToken,
    });
    expect(out.status).toBe(200);
    // The factory's own sign-in of the member, the first web one and the mobile one.
    expect(out.body).toEqual({ ended: 3 });
    for (const token of [res.body.accessToken, mobile.body.accessToken]) {
      expectProblem(await callJson("/api/user/me", { token }), 401, "session_revoked");
    }
    expect(
      (await callJson("/api/auth/refresh", { headers: { ...WEB, Cookie: cookie }, body: {} })).status,
    ).toBe(401);
    expect(
      (await callJson("/api/auth/refresh", { body: { refreshToken: mobile.body.refreshToken } })).status,
    ).toBe(401);
    // The caller's own sign-in goes on (ended next by the ordinary sign-out); another person's is untouched.
    expect((await callJson("/api/user/me", { token: here.body.accessToken })).status).toBe(200);
    expect((await callJson("/api/user/me", { token: other.body.accessToken })).status).toBe(200);
    const again = await callJson<{ ended: number }>("/api/auth/logout/others", {
      method: "POST",
      token: here.body.accessToken,
    });
    expect(again.body).toEqual({ ended: 0 });
  });

  it("needs a signed-in caller", async () => {
    expectProblem(await callJson("/api/auth/logout/others", { method: "POST" }), 401, "unauthorized");
  });
});
