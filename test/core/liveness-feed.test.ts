import { createExecutionContext } from "cloudflare:test";
import { SignJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keyIdOf } from "../../src/core/auth/keyring";
import { resetLivenessFeed } from "../../src/core/auth/liveness";
import { signAccessToken, verifyAccessToken } from "../../src/core/auth/tokens";
import { loadConfig } from "../../src/core/env";
import worker from "../../src/index";
import { setNow } from "../helpers/clock";
import { countingD1 } from "../helpers/d1";
import { bindings, callJson, createTenant, expectProblem } from "../helpers/harness";
import { household } from "../modules/surat/helpers";
import { GUEST_PAPERS } from "../modules/visitor/factories";

/**
 * Whether a sign-in is live comes from the isolate's list of ended sign-ins, fed by the platform table
 * `session_revocations` (core/auth/liveness.ts, ADR 0004): one read per isolate every few seconds for
 * every caller, not one read per sign-in. Only Date is faked here; nothing waits on the wall clock.
 */

/** The `sid` claim of an access token (the sign-in's family). */
function sidOf(token: string): string {
  const payload = token.split(".")[1] ?? "";
  return JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))).sid;
}

/** Another isolate ends a sign-in: the plain UPDATE its route runs, and no `forgetSession` here. */
async function revokeElsewhere(sid: string, revokedAt = new Date().toISOString()) {
  await bindings.PLATFORM_DB.prepare("UPDATE sessions SET revoked_at = ? WHERE family_id = ?")
    .bind(revokedAt, sid)
    .run();
}

/** One platform database that counts its round trips, as another isolate's binding object would be. */
function countedPlatform() {
  const trips: string[][] = [];
  const env = { ...bindings, PLATFORM_DB: countingD1(bindings.PLATFORM_DB, trips) } as typeof bindings;
  return {
    me: (token: string) =>
      worker.fetch(
        new Request("http://api.test/api/user/me", { headers: { Authorization: `Bearer ${token}` } }),
        env,
        createExecutionContext(),
      ),
    feedReads: () => trips.flat().filter((sql) => sql.includes("session_revocations")).length,
  };
}

beforeEach(() => resetLivenessFeed());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the liveness feed", () => {
  it("sees a sign-in another isolate ended once its few seconds are up, and not before", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    expect((await callJson("/api/user/me", { token: member.token })).status).toBe(200);
    await revokeElsewhere(sidOf(member.token));
    // Within the feed's 5 s this isolate has not read it again.
    expect((await callJson("/api/user/me", { token: member.token })).status).toBe(200);
    vi.setSystemTime(Date.now() + 5_001);
    expectProblem(await callJson("/api/user/me", { token: member.token }), 401, "session_revoked");
  });

  it("serves a token as its membership now stands once another isolate's change is read, in the same read (issue 45)", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga", { unitId: "unit-feed" });
    const trips: string[][] = [];
    const env = { ...bindings, PLATFORM_DB: countingD1(bindings.PLATFORM_DB, trips) } as typeof bindings;
    const members = async () => {
      const res = await worker.fetch(
        new Request("http://api.test/api/members", { headers: { Authorization: `Bearer ${member.token}` } }),
        env,
        createExecutionContext(),
      );
      return {
        status: res.status,
        headers: res.headers,
        body: (await res.json()) as Record<string, unknown>,
      };
    };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_001);
    expectProblem(await members(), 403, "forbidden_role");
    // Another isolate gives the duty: the plain UPDATE its route runs, no forgetMemberships here.
    await bindings.PLATFORM_DB.prepare(`UPDATE memberships SET roles = '["bendahara"]' WHERE user_id = ?`)
      .bind(member.id)
      .run();
    expectProblem(await members(), 403, "forbidden_role");
    vi.setSystemTime(Date.now() + 5_001);
    const allowed = await members();
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("X-Warga-Access-Token")).toBeTruthy();
    // Both feeds come in one statement: no request gains a round trip.
    const feedReads = trips.flat().filter((sql) => sql.includes("membership_changes"));
    expect(feedReads).toHaveLength(2);
    expect(feedReads.every((sql) => sql.includes("session_revocations"))).toBe(true);
    // Removed elsewhere (the row deleted): refused once read, like an ended sign-in.
    await bindings.PLATFORM_DB.prepare("DELETE FROM memberships WHERE user_id = ?").bind(member.id).run();
    vi.setSystemTime(Date.now() + 5_001);
    expectProblem(await members(), 401, "session_revoked");
  });

  it("reads again when the clock moved back below its last check, instead of trusting that check", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start + 60_000);
    expect((await callJson("/api/user/me", { token: member.token })).status).toBe(200);
    vi.setSystemTime(start);
    await revokeElsewhere(sidOf(member.token));
    expectProblem(await callJson("/api/user/me", { token: member.token }), 401, "session_revoked");
  });

  it("reads the platform database once for many sign-ins, not once for each", async () => {
    const tenant = await createTenant();
    const members = await Promise.all(Array.from({ length: 8 }, () => tenant.member("warga")));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_001);
    const platform = countedPlatform();
    for (const member of members) {
      expect((await platform.me(member.token)).status).toBe(200);
    }
    expect(platform.feedReads()).toBe(1);
    // The same eight a second later: no read at all; five seconds on, one more for all of them.
    vi.setSystemTime(Date.now() + 1_000);
    for (const member of members) {
      expect((await platform.me(member.token)).status).toBe(200);
    }
    expect(platform.feedReads()).toBe(1);
    vi.setSystemTime(Date.now() + 5_000);
    await Promise.all(
      members.map(async (member) => expect((await platform.me(member.token)).status).toBe(200)),
    );
    expect(platform.feedReads()).toBe(2);
  });

  it("stamps each ended sign-in with the database's clock, whatever clock the request runs on", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    // A request whose clock reads a year ago ends the sign-in: its revoked_at says so, the feed does not.
    setNow("2025-11-01T00:00:00Z");
    await revokeElsewhere(sidOf(member.token), "2025-11-01T00:00:00.000Z");
    const row = await bindings.PLATFORM_DB.prepare("SELECT at FROM session_revocations WHERE family_id = ?")
      .bind(sidOf(member.token))
      .first<{ at: string }>();
    expect(Math.abs(new Date(row?.at ?? 0).getTime() - Date.now())).toBeLessThan(60_000);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_001);
    expectProblem(await callJson("/api/user/me", { token: member.token }), 401, "session_revoked");
  });

  it("on an isolate's first read, takes the sign-ins ended in the last 20 minutes, which covers any token", async () => {
    const tenant = await createTenant();
    const [recent, old] = [await tenant.member("warga"), await tenant.member("warga")];
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    await bindings.PLATFORM_DB.batch([
      bindings.PLATFORM_DB.prepare("INSERT INTO session_revocations (family_id, at) VALUES (?, ?)").bind(
        sidOf(recent.token),
        ago(19),
      ),
      bindings.PLATFORM_DB.prepare("INSERT INTO session_revocations (family_id, at) VALUES (?, ?)").bind(
        sidOf(old.token),
        ago(21),
      ),
    ]);
    resetLivenessFeed();
    expectProblem(await callJson("/api/user/me", { token: recent.token }), 401, "session_revoked");
    // Not refused by liveness: an entry that old is of a sign-in whose tokens have all expired.
    expect((await callJson("/api/user/me", { token: old.token })).status).toBe(200);
  });

  it("keeps a day of entries, each sign-in once: each new one drops those older", async () => {
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    const dayAgo = new Date(Date.now() - 86_400_000 - 60_000).toISOString();
    await bindings.PLATFORM_DB.prepare("INSERT INTO session_revocations (family_id, at) VALUES ('stale', ?)")
      .bind(dayAgo)
      .run();
    // The sign-in has rotated once: one UPDATE revokes both of its rows, and the feed has it once.
    await bindings.PLATFORM_DB.prepare(
      "INSERT INTO sessions (id, user_id, tenant_id, family_id, refresh_hash, expires_at) " +
        "SELECT 'rotated-' || id, user_id, tenant_id, family_id, 'rotated-' || refresh_hash, expires_at " +
        "FROM sessions WHERE family_id = ?",
    )
      .bind(sidOf(member.token))
      .run();
    await revokeElsewhere(sidOf(member.token));
    const left = await bindings.PLATFORM_DB.prepare(
      "SELECT family_id AS id FROM session_revocations WHERE family_id IN ('stale', ?)",
    )
      .bind(sidOf(member.token))
      .all<{ id: string }>();
    expect(left.results.map((r) => r.id)).toEqual([sidOf(member.token)]);
    // A second UPDATE of an ended sign-in adds nothing either.
    await revokeElsewhere(sidOf(member.token));
    const count = await bindings.PLATFORM_DB.prepare(
      "SELECT count(*) AS n FROM session_revocations WHERE family_id = ?",
    )
      .bind(sidOf(member.token))
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});

describe("the feed of renamed accounts (ADR 0053)", () => {
  /** The staff's list of guests through a platform binding that counts reads of display names. */
  async function guestList(tenant: Awaited<ReturnType<typeof createTenant>>) {
    const { warga, sek: sekretaris } = await household(tenant);
    const registered = await callJson("/api/visitor", {
      token: warga.token,
      body: {
        guestName: "Andi Wijaya",
        purpose: "Silaturahmi",
        visitAt: new Date(Date.now() + 2 * 3_600_000).toISOString(),
        ...GUEST_PAPERS,
      },
    });
    expect(registered.status).toBe(201);
    const trips: string[][] = [];
    const env = { ...bindings, PLATFORM_DB: countingD1(bindings.PLATFORM_DB, trips) } as typeof bindings;
    const read = async () => {
      const res = await worker.fetch(
        new Request("http://api.test/api/visitor", {
          headers: { Authorization: `Bearer ${sekretaris.token}` },
        }),
        env,
        createExecutionContext(),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: { residentName: string | null }[] };
      return body.items.map((v) => v.residentName);
    };
    const nameReads = () =>
      trips.flat().filter((sql) => /from "users" where "users"\."id" in/i.test(sql)).length;
    return { warga, read, nameReads };
  }

  const rename = (id: string, name: string) =>
    bindings.PLATFORM_DB.prepare("UPDATE users SET name = ? WHERE id = ?").bind(name, id).run();

  it("reads a name once per isolate, and again once another isolate's rename is read in the same feed", async () => {
    const tenant = await createTenant();
    const list = await guestList(tenant);
    await rename(list.warga.id, "Budi Santoso");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_001);
    expect(await list.read()).toEqual(["Budi Santoso"]);
    expect(list.nameReads()).toBe(1);
    // The same list again: its page, and no read of names.
    expect(await list.read()).toEqual(["Budi Santoso"]);
    expect(list.nameReads()).toBe(1);
    // Another isolate renames (the plain UPDATE its route runs): within the feed's 5 s the old name...
    await rename(list.warga.id, "Budi S.");
    expect(await list.read()).toEqual(["Budi Santoso"]);
    // ...then the feed brings the id (in the statement that reads the other feeds) and the name is read.
    vi.setSystemTime(Date.now() + 5_001);
    expect(await list.read()).toEqual(["Budi S."]);
    expect(list.nameReads()).toBe(2);
    const row = await bindings.PLATFORM_DB.prepare("SELECT * FROM user_name_changes WHERE user_id = ?")
      .bind(list.warga.id)
      .first<Record<string, unknown>>();
    // The feed says that a name changed, never what it was or became.
    expect(Object.keys(row ?? {}).sort()).toEqual(["at", "user_id"]);
  });

  it("shows a name changed through the profile at once in the isolate that changed it", async () => {
    const tenant = await createTenant();
    const list = await guestList(tenant);
    const before = await list.read();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const saved = await callJson("/api/user/profile", {
      method: "PUT",
      token: list.warga.token,
      body: { fullName: "Siti Aminah", whatsapp: "0812-1111-2222" },
    });
    expect(saved.status).toBe(200);
    expect(before).not.toEqual(["Siti Aminah"]);
    expect(await list.read()).toEqual(["Siti Aminah"]);
  });

  it("forgets a deleted account's name, and records no entry for an update that keeps the name", async () => {
    const tenant = await createTenant();
    const list = await guestList(tenant);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_001);
    await list.read();
    await bindings.PLATFORM_DB.prepare("UPDATE users SET updated_at = 'x' WHERE id = ?")
      .bind(list.warga.id)
      .run();
    const kept = await bindings.PLATFORM_DB.prepare(
      "SELECT count(*) AS n FROM user_name_changes WHERE user_id = ?",
    )
      .bind(list.warga.id)
      .first<{ n: number }>();
    expect(kept?.n).toBe(0);
    await bindings.PLATFORM_DB.batch([
      bindings.PLATFORM_DB.prepare("PRAGMA defer_foreign_keys = on"),
      bindings.PLATFORM_DB.prepare("DELETE FROM users WHERE id = ?").bind(list.warga.id),
    ]);
    vi.setSystemTime(Date.now() + 5_001);
    expect(await list.read()).toEqual([null]);
  });
});

describe("the house on the token (ADR 0043)", () => {
  const payloadOf = (token: string) =>
    JSON.parse(atob((token.split(".")[1] ?? "").replaceAll("-", "+").replaceAll("_", "/"))) as Record<
      string,
      unknown
    >;

  it("serves a resident's own guests by the house its token names, read again only from the feed", async () => {
    const tenant = await createTenant();
    const home = await household(tenant);
    const satpam = await tenant.member("satpam");
    const other = await callJson<{ id: string }>("/api/kependudukan/units", {
      token: home.sek.token,
      body: { block: "D", number: "7" },
    });
    expect(other.status).toBe(201);
    // A neighbour lives at D 7, so the gate can announce a guest there.
    await tenant.member("warga", { unitId: other.body.id });
    const ownUnit = await callJson<{ block: string; number: string }>(
      `/api/kependudukan/units/${home.unitId}`,
      {
        token: home.sek.token,
      },
    );
    for (const [guestName, unit] of [
      ["Ojol Rumah Sendiri", ownUnit.body],
      ["Ojol Rumah Lain", { block: "D", number: "7" }],
    ] as const) {
      const walkIn = await callJson("/api/visitor/gate/walk-in", {
        token: satpam.token,
        body: { guestName, category: "ojol", block: unit.block, number: unit.number, ...GUEST_PAPERS },
      });
      expect(walkIn.status, JSON.stringify(walkIn.body)).toBe(201);
    }
    expect(payloadOf(home.warga.token).unit).toBe(home.unitId);
    const trips: string[][] = [];
    const env = { ...bindings, PLATFORM_DB: countingD1(bindings.PLATFORM_DB, trips) } as typeof bindings;
    const mine = async (token: string) => {
      const res = await worker.fetch(
        new Request("http://api.test/api/visitor/mine", { headers: { Authorization: `Bearer ${token}` } }),
        env,
        createExecutionContext(),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: { guestName: string }[] };
      return {
        guests: body.items.map((v) => v.guestName).sort(),
        restated: res.headers.get("X-Warga-Access-Token"),
      };
    };
    const membershipReads = () => trips.flat().filter((sql) => /from "memberships"/i.test(sql)).length;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_001);
    expect((await mine(home.warga.token)).guests).toEqual(["Ojol Rumah Sendiri"]);
    expect(membershipReads()).toBe(0);
    // A token signed before the claim existed: the same answer, from a read of the membership.
    const config = loadConfig(bindings);
    const { unit: _, ...claims } = payloadOf(home.warga.token);
    const older = await signAccessToken(config, {
      sub: home.warga.id,
      tenant: tenant.slug,
      roles: [],
      resident: true,
      sid: claims.sid as string,
      mid: claims.mid as string,
      mv: claims.mv as number,
    });
    expect(payloadOf(older).unit).toBeUndefined();
    expect((await mine(older)).guests).toEqual(["Ojol Rumah Sendiri"]);
    expect(membershipReads()).toBe(1);
    // Another isolate moves the family to D 7 (the plain UPDATE its route runs): within the feed's 5 s
    // the token's house still stands, as its duties would...
    await bindings.PLATFORM_DB.prepare("UPDATE memberships SET unit_id = ? WHERE user_id = ?")
      .bind(other.body.id, home.warga.id)
      .run();
    expect((await mine(home.warga.token)).guests).toEqual(["Ojol Rumah Sendiri"]);
    // ...then the membership as it now stands, and a token that says so.
    vi.setSystemTime(Date.now() + 5_001);
    const moved = await mine(home.warga.token);
    // D 7's guest is now theirs to see (the one announced to them at the old house stays theirs too).
    expect(moved.guests).toEqual(["Ojol Rumah Lain", "Ojol Rumah Sendiri"]);
    expect(payloadOf(moved.restated ?? "").unit).toBe(other.body.id);
    expect(membershipReads()).toBe(1);
  });

  it("refuses a token whose house is not a string or null, or that names a house without a membership", async () => {
    const config = loadConfig(bindings);
    const base = { sub: "u1", tenant: "rt-01", roles: [], resident: true, sid: "s1" } as const;
    const forged = async (payload: Record<string, unknown>) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: await keyIdOf(config.JWT_SECRET) })
        .setSubject("u1")
        .setIssuer(config.JWT_ISSUER)
        .setAudience(config.JWT_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(new TextEncoder().encode(config.JWT_SECRET));
    const { sub: _, ...rest } = base;
    await expect(verifyAccessToken(config, await forged({ ...rest, unit: "unit-1" }))).rejects.toMatchObject({
      code: "invalid_token",
    });
    await expect(
      verifyAccessToken(config, await forged({ ...rest, mid: "m1", mv: 1, unit: 7 })),
    ).rejects.toMatchObject({ code: "invalid_token" });
    expect(
      await verifyAccessToken(config, await forged({ ...rest, mid: "m1", mv: 1, unit: null })),
    ).toMatchObject({
      unit: null,
    });
    expect(
      await verifyAccessToken(
        config,
        await signAccessToken(config, { ...base, mid: "m1", mv: 1, unit: "unit-1" }),
      ),
    ).toMatchObject({ mid: "m1", unit: "unit-1" });
  });
});
