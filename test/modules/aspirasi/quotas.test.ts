import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { memberships } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import { addDays } from "../../../src/core/time";
import { notifyFor } from "../../../src/platform/notify/notifier";
import { jakartaTime, setNow } from "../../helpers/clock";
import { tenantD1 } from "../../helpers/d1";
import {
  bindings,
  callJson,
  createTenant,
  ENGLISH,
  expectProblem,
  login,
  type Member,
  type TestTenant,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";

const complaint = (n: number) => ({
  title: `Got mampet ${n}`,
  description: "Air meluap ke jalan setiap hujan",
  category: "infrastruktur",
});
type RequestHeaders = Record<string, string>;
const complain = (token: string, n = 0, headers?: RequestHeaders) =>
  callJson<{ id: string }>("/api/pengaduan", { token, body: complaint(n), headers });
const suggest = (token: string, headers?: RequestHeaders) =>
  callJson("/api/saran", {
    token,
    body: { body: "Jadwal ronda mohon diumumkan lebih awal", anonymous: true },
    headers,
  });
const propose = (token: string, headers?: RequestHeaders) =>
  callJson<{ id: string }>("/api/usulan", {
    token,
    body: { title: "Pasang CCTV di gerbang", description: "Untuk keamanan malam hari" },
    headers,
  });

/** Sends `n` requests one after another and returns their statuses. */
async function times(n: number, send: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    statuses.push((await send(i)).status);
  }
  return statuses;
}

/**
 * The problem a quota answers: 429, Retry-After in seconds, and a detail naming the quota. `send` is
 * called twice: with no Accept-Language (Indonesian, the default: the code's sentence) and in English,
 * whose detail names the quota.
 */
async function expectQuota(
  send: (headers?: RequestHeaders) => Promise<{ status: number; headers: Headers; body: unknown }>,
  quota: string,
  policy: string,
): Promise<number> {
  const indonesian = await send();
  expectProblem(indonesian, 429, "rate_limited");
  expect(indonesian.headers.get("Content-Language")).toBe("id");
  const res = await send(ENGLISH);
  expectProblem(res, 429, "rate_limited");
  const detail = (res.body as { detail: string }).detail;
  expect(detail).toContain(quota);
  expect(detail).toContain(policy);
  const retryAfter = Number(res.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(86_400);
  return retryAfter;
}

/** The same account made a member of a second community too, signed in there. */
async function alsoMemberOf(tenant: TestTenant, member: Member): Promise<string> {
  await platformDb(bindings)
    .insert(memberships)
    .values({ id: newId(), userId: member.id, tenantId: tenant.id, roles: [], unitId: null });
  return login(member.email, tenant.slug);
}

describe("quotas on what one member creates (issue 35)", () => {
  it("20 complaints a day: the 21st is 429 naming the quota, and a day later there is room again", async () => {
    const day = jakartaTime("2026-12-01", 9);
    setNow(day);
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    expect(await times(20, (i) => complain(warga.token, i))).toEqual(Array(20).fill(201));
    const retryAfter = await expectQuota(
      (headers) => complain(warga.token, 21, headers),
      "20 complaints per member per day",
      "pengaduan-create:member",
    );
    // The window slides from the first complaint: it reopens when that one is a day old.
    expect(retryAfter).toBeGreaterThan(86_400 - 120);
    const stored = await tenantD1(tenant)
      .prepare("SELECT COUNT(*) AS n FROM complaints WHERE resident_id = ?")
      .bind(warga.id)
      .first<{ n: number }>();
    expect(stored?.n).toBe(20);
    // Another resident of the same community has their own quota.
    expect((await complain((await tenant.member("warga")).token)).status).toBe(201);
    // Just before the day is over: still refused. A day after the first: room again.
    setNow(new Date(day.getTime() + 86_400_000 - 60_000));
    expectProblem(await complain(warga.token), 429, "rate_limited");
    setNow(addDays(day, 1.01));
    expect((await complain(warga.token)).status).toBe(201);
  });

  it("20 suggestions and 10 proposals a day, each its own quota", async () => {
    setNow(jakartaTime("2026-12-02", 9));
    const tenant = await createTenant();
    const warga = await tenant.member("warga");
    expect(await times(20, () => suggest(warga.token))).toEqual(Array(20).fill(201));
    await expectQuota(
      (headers) => suggest(warga.token, headers),
      "20 suggestions per member per day",
      "saran-create:member",
    );
    // Anonymous or not, the suggestion stores no sender; the quota kept none either.
    expect(await times(10, () => propose(warga.token))).toEqual(Array(10).fill(201));
    await expectQuota(
      (headers) => propose(warga.token, headers),
      "10 proposals per member per day",
      "usulan-create:member",
    );
    // Complaints are counted apart: none sent yet.
    expect((await complain(warga.token)).status).toBe(201);
  });

  it("60 endorsements a day", async () => {
    setNow(jakartaTime("2026-12-03", 9));
    const tenant = await createTenant();
    const [author, warga] = [await tenant.member("warga"), await tenant.member("warga")];
    const db = tenantD1(tenant);
    const ids = Array.from({ length: 61 }, () => newId());
    await db.batch(
      ids.map((id) =>
        db
          .prepare(
            "INSERT INTO proposals (id, resident_id, title, description, status, updated_at) VALUES (?, ?, 'Taman', 'Taman bermain', 'diajukan', ?)",
          )
          .bind(id, author.id, new Date().toISOString()),
      ),
    );
    const endorse = (id: string, headers?: RequestHeaders) =>
      callJson(`/api/usulan/${id}/dukung`, { method: "POST", token: warga.token, headers });
    expect(await times(60, (i) => endorse(ids[i] as string))).toEqual(Array(60).fill(200));
    await expectQuota(
      (headers) => endorse(ids[60] as string, headers),
      "60 endorsements per member per day",
      "usulan-endorse:member",
    );
  });

  it("a quota spent in one community leaves the member's quota in another whole", async () => {
    setNow(jakartaTime("2026-12-04", 9));
    const [a, b] = [await createTenant(), await createTenant()];
    const warga = await a.member("warga");
    const inB = await alsoMemberOf(b, warga);
    expect(await times(20, (i) => complain(warga.token, i))).toEqual(Array(20).fill(201));
    expectProblem(await complain(warga.token), 429, "rate_limited");
    expect(await times(20, (i) => complain(inB, i))).toEqual(Array(20).fill(201));
    expectProblem(await complain(inB), 429, "rate_limited");
  });

  it("staff are counted like any resident when they complain as one", async () => {
    setNow(jakartaTime("2026-12-05", 9));
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris", { unitId: "unit-sek" });
    expect(await times(20, (i) => complain(sek.token, i))).toEqual(Array(20).fill(201));
    expectProblem(await complain(sek.token), 429, "rate_limited");
  });
});

/** A staff member with a phone registered for push. */
async function staffWithPhone(tenant: TestTenant, role: "sekretaris" | "admin") {
  const member = await tenant.member(role);
  const token = `fcm-${newId()}`;
  await notifyFor(bindings).registerDevice({
    userId: member.id,
    tenant: tenant.slug,
    platform: "android",
    token,
  });
  return { ...member, phone: token };
}

/** The pushes a phone was sent, by title. */
async function pushesTo(member: { phone: string }): Promise<string[]> {
  const rows = await queuedMessages({ recipient: member.phone });
  return rows.filter((m) => m.channel === "push").map((m) => m.subject ?? "");
}

function digestOf(tenant: TestTenant) {
  return bindings.STAFF_DIGEST.get(bindings.STAFF_DIGEST.idFromName(`${tenant.id}:pengaduan.baru`));
}

describe("staff hear of new complaints grouped when a burst arrives (issue 35)", () => {
  it("the first complaint is pushed at once; the next eleven become one '11 pengaduan baru'", async () => {
    const tenant = await createTenant();
    const sek = await staffWithPhone(tenant, "sekretaris");
    const admin = await staffWithPhone(tenant, "admin");
    const warga = await tenant.member("warga");
    expect((await complain(warga.token, 1)).status).toBe(201);
    expect(await pushesTo(sek)).toEqual(["Pengaduan baru"]);
    expect(await pushesTo(admin)).toEqual(["Pengaduan baru"]);
    // Eleven more within the window: no push each.
    const others = await tenant.members("warga", 11);
    await Promise.all(others.map((w, i) => complain(w.token, i)));
    expect(await pushesTo(sek)).toEqual(["Pengaduan baru"]);
    // The window closes (its alarm, fired here instead of waited for): one summary.
    expect(await runDurableObjectAlarm(digestOf(tenant))).toBe(true);
    expect(await pushesTo(sek)).toEqual(["Pengaduan baru", "11 pengaduan baru"]);
    expect(await pushesTo(admin)).toEqual(["Pengaduan baru", "11 pengaduan baru"]);
    // A window with nothing new sends nothing and closes: the next complaint is pushed at once again.
    expect(await runDurableObjectAlarm(digestOf(tenant))).toBe(true);
    expect(await pushesTo(sek)).toHaveLength(2);
    expect((await complain(warga.token, 2)).status).toBe(201);
    expect(await pushesTo(sek)).toEqual(["Pengaduan baru", "11 pengaduan baru", "Pengaduan baru"]);
  });

  it("a flood costs one summary per window, and one community's burst is not another's", async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const sekA = await staffWithPhone(a, "sekretaris");
    const sekB = await staffWithPhone(b, "sekretaris");
    const wargaA = await a.members("warga", 6);
    await Promise.all(wargaA.map((w, i) => complain(w.token, i)));
    expect(await pushesTo(sekA)).toEqual(["Pengaduan baru"]);
    // B's first complaint is pushed at once although A's window is open.
    expect((await complain((await b.member("warga")).token)).status).toBe(201);
    expect(await pushesTo(sekB)).toEqual(["Pengaduan baru"]);
    await runDurableObjectAlarm(digestOf(a));
    expect(await pushesTo(sekA)).toEqual(["Pengaduan baru", "5 pengaduan baru"]);
    // Still flooding in the next window: folded again, not pushed one by one.
    await Promise.all(wargaA.slice(0, 3).map((w, i) => complain(w.token, 10 + i)));
    expect(await pushesTo(sekA)).toHaveLength(2);
    await runDurableObjectAlarm(digestOf(a));
    expect(await pushesTo(sekA)).toEqual(["Pengaduan baru", "5 pengaduan baru", "3 pengaduan baru"]);
    expect(await pushesTo(sekB)).toEqual(["Pengaduan baru"]);
  });

  it("a window whose alarm is gone does not swallow later complaints: the next one is pushed at once", async () => {
    const tenant = await createTenant();
    const sek = await staffWithPhone(tenant, "sekretaris");
    const warga = await tenant.member("warga");
    await complain(warga.token, 1);
    await complain(warga.token, 2);
    expect(await pushesTo(sek)).toEqual(["Pengaduan baru"]);
    // The alarm's retries ran out (a long outage of the notification service): no alarm is left.
    await runInDurableObject(digestOf(tenant), (_object, state) => state.storage.deleteAlarm());
    await complain(warga.token, 3);
    expect(await pushesTo(sek)).toEqual(["Pengaduan baru", "Pengaduan baru"]);
  });
});
