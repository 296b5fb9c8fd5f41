import { env } from "cloudflare:workers";
import { pbkdf2Sync } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships, users } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import { notifyFor } from "../../../src/platform/notify/notifier";
import { bindings, callJson, createTenant, expectProblem, insertUser, PASSWORD } from "../../helpers/harness";
import type { Session } from "./helpers";

async function signIn(email: string, tenant?: string): Promise<Session> {
  const res = await callJson<Session>("/api/auth/login", {
    body: { email, password: PASSWORD, ...(tenant ? { tenant } : {}) },
  });
  expect(res.status).toBe(200);
  return res.body;
}

const refresh = (refreshToken: string) => callJson<Session>("/api/auth/refresh", { body: { refreshToken } });

describe("refresh tokens", () => {
  it("rotates on every refresh: the new pair works, the spent token does not", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const first = await signIn(member.email);
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.refreshToken);
    expect(second.body.user).toMatchObject({
      id: member.id,
      roles: [],
      resident: true,
      tenant: { slug: tenant.slug },
    });
    expect((await callJson("/api/user/me", { token: second.body.accessToken })).status).toBe(200);
    const third = await refresh(second.body.refreshToken);
    expect(third.status).toBe(200);
  });

  it("revokes the whole family when a spent refresh token is presented again (theft detection)", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const stolen = await signIn(member.email);
    const owner = await refresh(stolen.refreshToken);
    expect(owner.status).toBe(200);
    // The thief replays the copy it took before the owner's rotation.
    expectProblem(await refresh(stolen.refreshToken), 401, "refresh_token_reused");
    // The owner's newer token belonged to the same family, so it is dead too.
    expectProblem(await refresh(owner.body.refreshToken), 401, "invalid_refresh_token");
  });

  it("keeps other sign-ins of the same person alive when one family is revoked", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const phone = await signIn(member.email);
    const laptop = await signIn(member.email);
    await refresh(phone.refreshToken);
    await refresh(phone.refreshToken);
    expect((await refresh(laptop.refreshToken)).status).toBe(200);
  });

  it("rejects unknown and malformed refresh tokens", async () => {
    expectProblem(await refresh("x".repeat(43)), 401, "invalid_refresh_token");
    expectProblem(await callJson("/api/auth/refresh", { body: {} }), 400, "invalid_input");
  });

  it("reads the role again at refresh, and ends the session when the membership is gone", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const session = await signIn(member.email);
    const db = platformDb(bindings);
    await db
      .update(memberships)
      .set({ roles: ["sekretaris"] })
      .where(eq(memberships.userId, member.id));
    const promoted = await refresh(session.refreshToken);
    expect(promoted.body.user.roles).toEqual(["sekretaris"]);
    await db.delete(memberships).where(eq(memberships.userId, member.id));
    expectProblem(await refresh(promoted.body.refreshToken), 401, "session_ended");
  });

  it("ends the session of a disabled account at the next refresh", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("admin");
    const session = await signIn(member.email);
    await platformDb(bindings).update(users).set({ status: "disabled" }).where(eq(users.id, member.id));
    expectProblem(await refresh(session.refreshToken), 401, "session_ended");
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the session and unregisters the phone's push token", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const session = await signIn(member.email);
    const pushToken = `fcm-${newId()}`;
    await notifyFor(bindings).registerDevice({
      userId: member.id,
      tenant: tenant.slug,
      platform: "android",
      token: pushToken,
    });
    const devices = () =>
      env.NOTIFY_DB_TEST.prepare("SELECT token FROM devices WHERE token = ?").bind(pushToken).all();
    expect((await devices()).results).toHaveLength(1);

    const res = await callJson("/api/auth/logout", {
      body: { refreshToken: session.refreshToken, pushToken },
    });
    expect(res.status).toBe(204);
    expect((await devices()).results).toHaveLength(0);
    expectProblem(await refresh(session.refreshToken), 401, "invalid_refresh_token");
  });

  it("stops the signed-out access token at identity's routes at once, not when it expires", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const session = await signIn(member.email);
    expect((await callJson("/api/user/me", { token: session.accessToken })).status).toBe(200);
    await callJson("/api/auth/logout", { body: { refreshToken: session.refreshToken } });
    expectProblem(await callJson("/api/user/me", { token: session.accessToken }), 401, "session_revoked");
    const other = await signIn(member.email);
    expect((await callJson("/api/user/me", { token: other.accessToken })).status).toBe(200);
  });

  it("answers 204 for an unknown session and then unregisters nothing", async () => {
    const pushToken = `fcm-${newId()}`;
    await notifyFor(bindings).registerDevice({
      userId: "u",
      tenant: "t",
      platform: "android",
      token: pushToken,
    });
    const res = await callJson("/api/auth/logout", { body: { refreshToken: "y".repeat(43), pushToken } });
    expect(res.status).toBe(204);
    const left = await env.NOTIFY_DB_TEST.prepare("SELECT token FROM devices WHERE token = ?")
      .bind(pushToken)
      .all();
    expect(left.results).toHaveLength(1);
  });
});

describe("several communities", () => {
  it("lists every membership in /api/user/me and switches tenant, losing the first tenant's access", async () => {
    const rw = await createTenant({ type: "RW" });
    const rt = await createTenant({ type: "RT", parentSlug: rw.slug });
    // A resident of the RT who is also the RW's secretary.
    const person = await rt.member("warga");
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: person.id, tenantId: rw.id, roles: ["sekretaris"] });

    const inRt = await signIn(person.email, rt.slug);
    const me = await callJson<{ tenant: { slug: string }; roles: string[]; memberships: unknown[] }>(
      "/api/user/me",
      { token: inRt.accessToken },
    );
    expect(me.body.tenant.slug).toBe(rt.slug);
    expect(me.body.memberships).toEqual(
      expect.arrayContaining([
        { tenant: expect.objectContaining({ slug: rt.slug }), roles: [], resident: true },
        { tenant: expect.objectContaining({ slug: rw.slug }), roles: ["sekretaris"], resident: false },
      ]),
    );
    // As a resident of the RT, the RW's registry is not reachable.
    expectProblem(await callJson("/api/applications", { token: inRt.accessToken }), 403, "forbidden_role");

    const switched = await callJson<Session>("/api/auth/switch-tenant", {
      token: inRt.accessToken,
      body: { tenant: rw.slug },
    });
    expect(switched.status).toBe(200);
    expect(switched.body.user).toMatchObject({ roles: ["sekretaris"], tenant: { slug: rw.slug } });
    const inRw = switched.body.accessToken;
    expect((await callJson("/api/applications", { token: inRw })).status).toBe(200);

    // The RT session is over: its refresh token can no longer mint RT tokens, nor its access token act.
    expectProblem(await refresh(inRt.refreshToken), 401, "invalid_refresh_token");
    expectProblem(await callJson("/api/user/me", { token: inRt.accessToken }), 401, "session_revoked");
    // And the new token acts in the RW only: the RT's applications are not in its list.
    await callJson(`/api/public/tenants/${rt.slug}/applications`, {
      body: { fullName: "Tetangga Baru", whatsapp: "081234500001", block: "A", houseNumber: "1" },
    });
    const list = await callJson<{ items: unknown[] }>("/api/applications", { token: inRw });
    expect(list.body.items).toEqual([]);
  });

  it("refuses to switch to a community the caller does not belong to", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const member = await a.member("admin");
    const session = await signIn(member.email);
    const res = await callJson("/api/auth/switch-tenant", {
      token: session.accessToken,
      body: { tenant: b.slug },
    });
    expectProblem(res, 403, "no_membership");
    expectProblem(
      await callJson("/api/auth/switch-tenant", { body: { tenant: b.slug } }),
      401,
      "unauthorized",
    );
  });
});

describe("signing in with a WhatsApp number", () => {
  it("accepts 08…, +62… and 62… for an account that has the number", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga", { whatsapp: "6281234567001" });
    for (const whatsapp of ["081234567001", "+62 812-3456-7001", "6281234567001"]) {
      const res = await callJson<Session>("/api/auth/login", { body: { whatsapp, password: PASSWORD } });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(member.id);
    }
    expectProblem(
      await callJson("/api/auth/login", { body: { whatsapp: "081234567001", password: "salah-sekali" } }),
      401,
      "invalid_credentials",
    );
    expectProblem(
      await callJson("/api/auth/login", {
        body: { email: member.email, whatsapp: "081234567001", password: PASSWORD },
      }),
      400,
      "invalid_input",
    );
  });

  it("upgrades a first-scheme password hash at sign-in, and the password keeps working", async () => {
    const member = await (await createTenant()).member("warga");
    const salt = Buffer.from("fedcba9876543210");
    const hash = pbkdf2Sync(PASSWORD, salt, 100_000, 32, "sha256");
    const legacy = `pbkdf2-sha256$100000$${salt.toString("base64url")}$${hash.toString("base64url")}`;
    const db = platformDb(bindings);
    await db.update(users).set({ passwordHash: legacy }).where(eq(users.id, member.id));
    await signIn(member.email);
    const stored = await db.select().from(users).where(eq(users.id, member.id)).get();
    expect(stored?.passwordHash).toMatch(/^pbkdf2-sha512-peppered\$/);
    await signIn(member.email);
  });

  it("answers like a wrong password for a number nobody has", async () => {
    await insertUser({});
    expectProblem(
      await callJson("/api/auth/login", { body: { whatsapp: "081299999999", password: PASSWORD } }),
      401,
      "invalid_credentials",
    );
  });
});
