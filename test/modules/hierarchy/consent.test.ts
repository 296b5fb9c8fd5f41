import { afterEach, describe, expect, it, vi } from "vitest";
import { NotifyClient } from "../../../src/platform/notify/client";
import {
  bindings,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  operatorToken,
  type TestTenant,
  unique,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { answer, askLink, linkAccepted, noFigures, parentRequest, type Summary } from "./helpers";

/**
 * Issue 27, item 5: "RW links need the RT's consent". An RW's link-child is a request; the RT's admin
 * accepts or declines it; the RW sees no figure of the RT before it accepts; the operator's direct
 * parent change stays.
 */

interface Children {
  items: { slug: string; name: string; linkedAt: string }[];
  pending: { slug: string; name: string; requestedAt: string; status: string }[];
}

const summary = (token: string) => callJson<Summary>("/api/tenant-hierarchy/summary", { token });
const children = (token: string) => callJson<Children>("/api/tenant-hierarchy/children", { token });
const withdraw = (token: string, slug: string) =>
  callJson(`/api/tenant-hierarchy/link-child/${slug}`, { method: "DELETE", token });

async function rw(): Promise<{ tenant: TestTenant; admin: Member }> {
  const tenant = await createTenant({ type: "RW", slug: unique("rw") });
  return { tenant, admin: await tenant.member("admin") };
}

async function rtWithAdmin(): Promise<{ tenant: TestTenant; admin: Member }> {
  const tenant = await createTenant();
  return { tenant, admin: await tenant.member("admin") };
}

/** The RT's parent and pending request as stored in the control plane. */
async function links(rt: TestTenant) {
  return bindings.PLATFORM_DB.prepare(
    "SELECT parent_id, linked_at, parent_request_id, parent_requested_at FROM tenants WHERE id = ?",
  )
    .bind(rt.id)
    .first<{
      parent_id: string | null;
      linked_at: string | null;
      parent_request_id: string | null;
      parent_requested_at: string | null;
    }>();
}

/** Moves the RW's records of asking (rt_link_asks) `ms` into the past: the cool-downs as time passes. */
async function backdate(parent: TestTenant, ms: number) {
  const rows = await bindings.PLATFORM_DB.prepare("SELECT id, at FROM rt_link_asks WHERE rw_id = ?")
    .bind(parent.id)
    .all<{ id: string; at: string }>();
  await bindings.PLATFORM_DB.batch(
    rows.results.map((r) =>
      bindings.PLATFORM_DB.prepare("UPDATE rt_link_asks SET at = ? WHERE id = ?").bind(
        new Date(Date.parse(r.at) - ms).toISOString(),
        r.id,
      ),
    ),
  );
}

/** The platform audit actions about one RT, oldest first. */
async function auditActions(rt: TestTenant) {
  const rows = await bindings.PLATFORM_DB.prepare(
    "SELECT action, tenant_id FROM audit_log WHERE target_id = ? AND action LIKE 'hierarchy.%' ORDER BY id",
  )
    .bind(rt.id)
    .all<{ action: string; tenant_id: string }>();
  return rows.results;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("an RW asks, the RT answers", () => {
  it("shows the RW no figure of the RT until its admin accepts, then the RT's counts", async () => {
    const parent = await rw();
    const rt = await rtWithAdmin();
    const warga = await rt.tenant.member("warga");
    const complaint = await callJson("/api/pengaduan", {
      token: warga.token,
      body: { title: "Lampu jalan mati", description: "Sejak tiga hari lalu", category: "kebersihan" },
    });
    expect(complaint.status).toBe(201);

    const asked = await askLink(parent.admin.token, rt.tenant.slug);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ child: { slug: rt.tenant.slug, name: "RT Uji" }, status: "menunggu" });
    expect(await links(rt.tenant)).toMatchObject({
      parent_id: null,
      linked_at: null,
      parent_request_id: parent.tenant.id,
      parent_requested_at: expect.any(String),
    });

    // Asked, not accepted: the summary has no child and no figure; the list names it as waiting only.
    const before = await summary(parent.admin.token);
    expect(before.status).toBe(200);
    expect(before.body.children).toEqual([]);
    expect(before.body.total).toEqual(noFigures);
    const waiting = await children(parent.admin.token);
    expect(waiting.body.items).toEqual([]);
    expect(waiting.body.pending).toEqual([
      { slug: rt.tenant.slug, name: "RT Uji", requestedAt: expect.any(String), status: "menunggu" },
    ]);
    expect(JSON.stringify(waiting.body)).not.toMatch(/complaints|residents|figures/);

    // The RT's admin sees who asks, and accepts.
    const seen = await parentRequest(rt.admin.token);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      parent: { slug: parent.tenant.slug, name: "RT Uji" },
      requestedAt: waiting.body.pending[0]?.requestedAt,
      status: "menunggu",
    });
    const accepted = await answer(rt.admin.token, "accept");
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      parent: { slug: parent.tenant.slug, name: "RT Uji" },
      linkedAt: expect.any(String),
    });
    expect(await links(rt.tenant)).toMatchObject({
      parent_id: parent.tenant.id,
      linked_at: accepted.body.linkedAt,
      parent_request_id: null,
      parent_requested_at: null,
    });
    expectProblem(await parentRequest(rt.admin.token), 404, "no_link_request");
    expectProblem(await answer(rt.admin.token, "accept"), 404, "no_link_request");

    const after = await summary(parent.admin.token);
    expect(after.body.children).toEqual([
      {
        slug: rt.tenant.slug,
        name: "RT Uji",
        figures: expect.objectContaining({ complaintsOpen: 1 }),
        asOf: expect.any(String),
        error: null,
      },
    ]);
    // Read after the RT accepted, never before (ADR 0038: a kept row older than the link is not shown).
    expect(String(after.body.children[0]?.asOf) >= accepted.body.linkedAt).toBe(true);
    expect(after.body.total.complaintsOpen).toBe(1);
    const listed = await children(parent.admin.token);
    expect(listed.body).toEqual({
      items: [{ slug: rt.tenant.slug, name: "RT Uji", linkedAt: accepted.body.linkedAt }],
      pending: [],
    });
    expect((await auditActions(rt.tenant)).map((a) => a.action)).toEqual([
      "hierarchy.link_request",
      "hierarchy.link",
    ]);
  });

  it("declining clears the request and links nothing; the RW may ask again", async () => {
    const parent = await rw();
    const rt = await rtWithAdmin();
    expect((await askLink(parent.admin.token, rt.tenant.slug)).status).toBe(202);
    const declined = await answer(rt.admin.token, "decline");
    expect(declined.status).toBe(204);
    expect(await links(rt.tenant)).toEqual({
      parent_id: null,
      linked_at: null,
      parent_request_id: null,
      parent_requested_at: null,
    });
    expectProblem(await parentRequest(rt.admin.token), 404, "no_link_request");
    expectProblem(await answer(rt.admin.token, "decline"), 404, "no_link_request");
    expect((await children(parent.admin.token)).body).toEqual({ items: [], pending: [] });
    expect((await summary(parent.admin.token)).body.children).toEqual([]);

    // Asking again at once is refused for the cool-down (issue 44 P9), and tells the RT nothing.
    const mails = (await queuedMessages({ recipient: rt.admin.email })).length;
    const early = await askLink(parent.admin.token, rt.tenant.slug);
    expectProblem(early, 429, "link_request_cooldown");
    expect(Number(early.headers.get("Retry-After"))).toBeGreaterThan(6 * 86_400);
    expect(await links(rt.tenant)).toMatchObject({ parent_request_id: null });
    // Eight days later (the RW's records moved back), the RW may ask again, and the RT is told again.
    await backdate(parent.tenant, 8 * 86_400_000);
    expect((await askLink(parent.admin.token, rt.tenant.slug)).status).toBe(202);
    expect((await parentRequest(rt.admin.token)).status).toBe(200);
    expect(await queuedMessages({ recipient: rt.admin.email })).toHaveLength(mails + 1);
    const actions = await auditActions(rt.tenant);
    expect(actions.map((a) => a.action)).toEqual([
      "hierarchy.link_request",
      "hierarchy.link_decline",
      "hierarchy.link_request",
    ]);
    // The RW's request is on the RW's record; the RT's answer on the RT's.
    expect(actions.map((a) => a.tenant_id)).toEqual([parent.tenant.id, rt.tenant.id, parent.tenant.id]);
  });

  it("refuses another RW's request while one waits (409 link_request_pending); the same RW asking again is no change", async () => {
    const a = await rw();
    const b = await rw();
    const rt = await rtWithAdmin();
    const first = await askLink(a.admin.token, rt.tenant.slug);
    expect(first.status).toBe(202);
    const stored = await links(rt.tenant);
    expectProblem(await askLink(b.admin.token, rt.tenant.slug), 409, "link_request_pending");
    const again = await askLink(a.admin.token, rt.tenant.slug);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await links(rt.tenant)).toEqual(stored);
    expect((await auditActions(rt.tenant)).map((x) => x.action)).toEqual(["hierarchy.link_request"]);
    // B's request was never stored, so B has nothing to withdraw and A's request stands.
    expectProblem(await withdraw(b.admin.token, rt.tenant.slug), 404, "not_found");
    expect((await parentRequest(rt.admin.token)).body.parent.slug).toBe(a.tenant.slug);
  });

  it("lets the RW withdraw its pending request, after which the RT has nothing to answer", async () => {
    const parent = await rw();
    const rt = await rtWithAdmin();
    expect((await askLink(parent.admin.token, rt.tenant.slug)).status).toBe(202);
    expect((await withdraw(parent.admin.token, rt.tenant.slug)).status).toBe(204);
    expect(await links(rt.tenant)).toMatchObject({ parent_id: null, parent_request_id: null });
    expect((await children(parent.admin.token)).body.pending).toEqual([]);
    expectProblem(await answer(rt.admin.token, "accept"), 404, "no_link_request");
    expectProblem(await withdraw(parent.admin.token, rt.tenant.slug), 404, "not_found");
    expect((await auditActions(rt.tenant)).map((x) => x.action)).toEqual([
      "hierarchy.link_request",
      "hierarchy.link_withdraw",
    ]);
  });

  it("lets only one of an accept and a withdrawal at the same moment through, and leaves a consistent row", async () => {
    const parent = await rw();
    const rt = await rtWithAdmin();
    expect((await askLink(parent.admin.token, rt.tenant.slug)).status).toBe(202);
    const [accepted, withdrawn] = await Promise.all([
      answer(rt.admin.token, "accept"),
      withdraw(parent.admin.token, rt.tenant.slug),
    ]);
    const row = await links(rt.tenant);
    expect(row?.parent_request_id).toBeNull();
    if (accepted.status === 200) {
      // The withdrawal either read the link already made and undid it (204), or lost its guarded write (404).
      expect([204, 404]).toContain(withdrawn.status);
      expect(row?.parent_id).toBe(withdrawn.status === 204 ? null : parent.tenant.id);
    } else {
      expectProblem(accepted, 404, "no_link_request");
      expect(withdrawn.status).toBe(204);
      expect(row?.parent_id).toBeNull();
    }
  });

  it("is only for the RT asked: another RT's admin gets 404, the RW's admin 403, an RT's secretary 403", async () => {
    const parent = await rw();
    const rt = await rtWithAdmin();
    const otherRt = await rtWithAdmin();
    expect((await askLink(parent.admin.token, rt.tenant.slug)).status).toBe(202);
    expectProblem(await parentRequest(otherRt.admin.token), 404, "no_link_request");
    expectProblem(await answer(otherRt.admin.token, "accept"), 404, "no_link_request");
    expectProblem(await answer(otherRt.admin.token, "decline"), 404, "no_link_request");
    // The request still waits for its own RT.
    expect((await parentRequest(rt.admin.token)).status).toBe(200);

    expectProblem(await parentRequest(parent.admin.token), 403, "not_rt_tenant");
    expectProblem(await answer(parent.admin.token, "accept"), 403, "not_rt_tenant");
    expectProblem(await answer(parent.admin.token, "decline"), 403, "not_rt_tenant");
    const sek = await rt.tenant.member("sekretaris");
    expectProblem(await parentRequest(sek.token), 403, "forbidden_role");
    expectProblem(await answer(sek.token, "accept"), 403, "forbidden_role");
    expect(await links(rt.tenant)).toMatchObject({ parent_id: null, parent_request_id: parent.tenant.id });
  });

  it("refuses bad input with 400: no slug, a slug that is not one, a number", async () => {
    const parent = await rw();
    const post = (body: unknown) =>
      callJson("/api/tenant-hierarchy/link-child", { token: parent.admin.token, body });
    expectProblem(await post({}), 400, "invalid_input");
    expectProblem(await post({ slug: "Bukan Slug!" }), 400, "invalid_input");
    expectProblem(await post({ slug: 42 }), 400, "invalid_input");
    expectProblem(
      await callJson("/api/tenant-hierarchy/link-child/Bukan%20Slug", {
        method: "DELETE",
        token: parent.admin.token,
      }),
      400,
      "invalid_input",
    );
  });
});

describe("limits on asking (issue 44 P9)", () => {
  it("keeps a decline's cool-down to its RW and RT, tells a re-asked RT once a day, and lets a stale request's slot go", async () => {
    const a = await rw();
    const b = await rw();
    const rt = await rtWithAdmin();
    const other = await rtWithAdmin();
    expect((await askLink(a.admin.token, rt.tenant.slug)).status).toBe(202);
    expect((await answer(rt.admin.token, "decline")).status).toBe(204);
    // The decline holds A off this RT only: A may ask another RT, and B may ask this one.
    expectProblem(await askLink(a.admin.token, rt.tenant.slug), 429, "link_request_cooldown");
    expect((await askLink(a.admin.token, other.tenant.slug)).status).toBe(202);
    expect((await askLink(b.admin.token, rt.tenant.slug)).status).toBe(202);
    // B withdraws and asks again at once: stored and shown, but the RT's admin is not emailed twice.
    expect((await withdraw(b.admin.token, rt.tenant.slug)).status).toBe(204);
    expect((await askLink(b.admin.token, rt.tenant.slug)).status).toBe(202);
    expect((await parentRequest(rt.admin.token)).body.parent.slug).toBe(b.tenant.slug);
    const fromB = (await queuedMessages({ recipient: rt.admin.email })).filter((m) =>
      m.subject?.includes("Permintaan bergabung"),
    );
    expect(fromB).toHaveLength(2); // A's first request and B's first; not B's second.
    // B's request stays unanswered for 15 days: it no longer holds the RT, so A (cooled down) asks instead.
    await backdate(a.tenant, 8 * 86_400_000);
    expectProblem(await askLink(a.admin.token, rt.tenant.slug), 409, "link_request_pending");
    await bindings.PLATFORM_DB.prepare("UPDATE tenants SET parent_requested_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 15 * 86_400_000).toISOString(), rt.tenant.id)
      .run();
    expect((await askLink(a.admin.token, rt.tenant.slug)).status).toBe(202);
    expect((await parentRequest(rt.admin.token)).body.parent.slug).toBe(a.tenant.slug);
    expect((await children(b.admin.token)).body.pending).toEqual([]);
  });

  it("bounds an RW's requests per day and waiting at once (429 link_request_limit)", async () => {
    const parent = await rw();
    const rt = await rtWithAdmin();
    const db = bindings.PLATFORM_DB;
    // Twenty asks of other RTs in the last hours: the twenty-first is refused until the first is a day old.
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    await db.batch(
      Array.from({ length: 20 }, (_, i) =>
        db
          .prepare("INSERT INTO rt_link_asks (id, rw_id, rt_id, kind, at) VALUES (?, ?, ?, 'ask', ?)")
          .bind(unique("ask"), parent.tenant.id, unique("rt"), at(23 - i)),
      ),
    );
    const limited = await askLink(parent.admin.token, rt.tenant.slug);
    expectProblem(limited, 429, "link_request_limit");
    expect(Number(limited.headers.get("Retry-After"))).toBeLessThanOrEqual(3_600);
    expect(await links(rt.tenant)).toMatchObject({ parent_request_id: null });
    expect(await queuedMessages({ recipient: rt.admin.email })).toEqual([]);
    await backdate(parent.tenant, 2 * 86_400_000);
    // Twenty requests waiting at once (copies of the RT's row asked by this RW): no twenty-first.
    const row = await db.prepare("SELECT * FROM tenants WHERE id = ?").bind(rt.tenant.id).first();
    const columns = Object.keys(row ?? {});
    await db.batch(
      Array.from({ length: 20 }, () => {
        const copy: Record<string, unknown> = {
          ...row,
          id: unique("t"),
          slug: unique("rt"),
          slot: null,
          parent_request_id: parent.tenant.id,
          parent_requested_at: at(1),
        };
        return db
          .prepare(
            `INSERT INTO tenants (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
          )
          .bind(...columns.map((c) => copy[c] ?? null));
      }),
    );
    expectProblem(await askLink(parent.admin.token, rt.tenant.slug), 429, "link_request_limit");
    expect((await children(parent.admin.token)).body.pending).toHaveLength(20);
  });
});

describe("telling the RT's admins", () => {
  it("emails every admin of the RT once, and WhatsApps an admin without email", async () => {
    const parent = await rw();
    const rt = await rtWithAdmin();
    const second = await rt.tenant.member("admin");
    const whatsapp = `62812${String(Date.now()).slice(-7)}`;
    const byPhone = await rt.tenant.member("admin", { whatsapp });
    await bindings.PLATFORM_DB.prepare("UPDATE users SET email = NULL WHERE id = ?").bind(byPhone.id).run();
    const sek = await rt.tenant.member("sekretaris");

    expect((await askLink(parent.admin.token, rt.tenant.slug)).status).toBe(202);
    expect((await askLink(parent.admin.token, rt.tenant.slug)).status).toBe(202);
    for (const admin of [rt.admin, second]) {
      const [mail, ...more] = await queuedMessages({ recipient: admin.email });
      expect(more).toEqual([]);
      expect(mail?.channel).toBe("email");
      expect(mail?.subject).toContain("Permintaan bergabung");
      // It says exactly what the RW will see (issue 44 P6): counts only, and letters only once turned on.
      const text = JSON.stringify(mail?.payload);
      expect(text).toContain("tanpa nama atau data pribadi warga");
      expect(text).toContain("kecuali Anda menyalakan");
      expect(text).toContain("jenis dan keperluan surat");
    }
    const [message, ...moreMessages] = await queuedMessages({ recipient: whatsapp });
    expect(moreMessages).toEqual([]);
    expect(message?.channel).toBe("whatsapp");
    expect(await queuedMessages({ recipient: sek.email })).toEqual([]);
    expect(await queuedMessages({ recipient: parent.admin.email })).toEqual([]);
  });

  it("still stores the request when the notification service fails, and logs it", async () => {
    const parent = await rw();
    const rt = await rtWithAdmin();
    vi.spyOn(NotifyClient.prototype, "sendRawEmail").mockRejectedValue(new Error("notify down"));
    const warn = vi.spyOn(console, "warn");
    const asked = await askLink(parent.admin.token, rt.tenant.slug);
    expect(asked.status).toBe(202);
    expect(warn.mock.calls.some(([line]) => String(line).includes("link_request_notify_failed"))).toBe(true);
    expect(await queuedMessages({ recipient: rt.admin.email })).toEqual([]);
    expect((await parentRequest(rt.admin.token)).status).toBe(200);
  });
});

describe("the operator's direct parent change", () => {
  it("links at once without the RT's answer, and ends a pending request for that RT", async () => {
    const asking = await rw();
    const chosen = await rw();
    const rt = await rtWithAdmin();
    expect((await askLink(asking.admin.token, rt.tenant.slug)).status).toBe(202);
    const patched = await callJson(`/api/platform/tenants/${rt.tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { parentSlug: chosen.tenant.slug },
    });
    expect(patched.status).toBe(200);
    expect(await links(rt.tenant)).toMatchObject({
      parent_id: chosen.tenant.id,
      parent_request_id: null,
      parent_requested_at: null,
    });
    expectProblem(await parentRequest(rt.admin.token), 404, "no_link_request");
    expect((await children(asking.admin.token)).body).toEqual({ items: [], pending: [] });
    expect((await children(chosen.admin.token)).body.items.map((c) => c.slug)).toEqual([rt.tenant.slug]);
    expectProblem(await askLink(asking.admin.token, rt.tenant.slug), 409, "already_linked");
    // Linked through either path, the RT reads the same: the RW's helper link works the same way.
    const other = await createTenant();
    await linkAccepted(chosen.admin.token, other);
    expect((await children(chosen.admin.token)).body.items.map((c) => c.slug).sort()).toEqual(
      [rt.tenant.slug, other.slug].sort(),
    );
  });
});
