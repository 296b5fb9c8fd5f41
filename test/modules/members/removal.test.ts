import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TenantCtx } from "../../../src/core/context";
import { memberships, sessions } from "../../../src/core/db/identity-schema";
import { platformDb } from "../../../src/core/db/platform";
import { newId } from "../../../src/core/ids";
import { setMemberRoles } from "../../../src/modules/identity/service";
import { removeMember as removeVerb } from "../../../src/modules/members/service";
import { auditTrail, memberCtx } from "../../helpers/contexts";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  login,
  PASSWORD,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";
import { tokenIn } from "../identity/helpers";
import { finishedLetter, household, type LetterBody, request, sampleFields, update } from "../surat/helpers";
import { GUEST_PAPERS } from "../visitor/factories";
import { allMembers, invite, removeMember, setRoles, soleAdmin } from "./helpers";

interface VisitorBody {
  id: string;
  status: string;
  pass?: string | null;
  inside: boolean;
  note: string | null;
}

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/**
 * The same context, except that a rival write runs on the platform database just before the verb's
 * first platform batch: two admins acting at the same moment, made deterministic.
 */
function rivalFirst(ctx: TenantCtx, rival: () => Promise<unknown>): TenantCtx {
  let done = false;
  const platform = new Proxy(ctx.platform, {
    get(target, prop) {
      if (prop === "batch") {
        return async (items: Parameters<TenantCtx["platform"]["batch"]>[0]) => {
          if (!done) {
            done = true;
            await rival();
          }
          return target.batch(items);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...ctx, platform };
}

describe("removing a member", () => {
  it("ends the membership: the old token is refused on its next request, passes are revoked, letters cancelled, the registry kept", async () => {
    const tenant = await createTenant();
    const h = await household(tenant);
    const guest = (visitAt: string) =>
      callJson<VisitorBody>("/api/visitor", {
        token: h.warga.token,
        body: { guestName: "Andi Wijaya", purpose: "Silaturahmi", visitAt, ...GUEST_PAPERS },
      });
    const approve = (id: string) =>
      callJson<VisitorBody>(`/api/visitor/${id}`, {
        method: "PUT",
        token: h.sek.token,
        body: { status: "disetujui" },
      });
    const waiting = (await guest(inHours(5))).body;
    // Within the hour before the visit: its pass would open the gate now.
    const approved = (await approve((await guest(inHours(0.6))).body.id)).body;
    const inside = (await approve((await guest(inHours(0.5))).body.id)).body;
    const checkIn = await callJson("/api/visitor/gate/check-in", {
      token: h.sek.token,
      body: { qr: inside.pass },
    });
    expect(checkIn.status).toBe(200);

    const letter = async () => {
      const res = await request(h.warga.token, {
        jenis: "domisili",
        onBehalfOf: "self",
        keperluan: "Melamar pekerjaan",
        fields: sampleFields("domisili"),
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    const submitted = await letter();
    const processing = await letter();
    expect((await update(h.sek.token, processing.id, { status: "diproses" })).status).toBe(200);
    const finished = await finishedLetter(h, `${newId().slice(-6)}/DOM/2026`);

    expect((await call("/api/visitor/mine", { token: h.warga.token })).status).toBe(200);
    const res = await removeMember(h.admin.token, h.warga.id);
    expect(res.status).toBe(204);

    expectProblem(await callJson("/api/visitor/mine", { token: h.warga.token }), 401, "session_revoked");
    expectProblem(await callJson("/api/user/me", { token: h.warga.token }), 401, "session_revoked");
    expectProblem(
      await callJson("/api/auth/login", {
        body: { email: h.warga.email, password: PASSWORD, tenant: tenant.slug },
      }),
      403,
      "no_membership",
    );
    expect((await allMembers(h.admin.token)).map((m) => m.userId)).not.toContain(h.warga.id);
    const live = await platformDb(bindings)
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, h.warga.id), eq(sessions.tenantId, tenant.id)));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);

    const visitor = async (id: string) =>
      (await callJson<VisitorBody>(`/api/visitor/${id}`, { token: h.sek.token })).body;
    expect(await visitor(waiting.id)).toMatchObject({ status: "ditolak", pass: null });
    expect(await visitor(approved.id)).toMatchObject({ status: "ditolak", pass: null });
    expectProblem(
      await callJson("/api/visitor/gate/check-in", { token: h.sek.token, body: { qr: approved.pass } }),
      409,
      "not_approved",
    );
    // A guest already inside is not locked in.
    expect(await visitor(inside.id)).toMatchObject({ status: "disetujui", inside: true });
    expect(
      (await callJson("/api/visitor/gate/check-out", { token: h.sek.token, body: { qr: inside.pass } }))
        .status,
    ).toBe(200);

    const letterOf = async (id: string) =>
      (await callJson<LetterBody>(`/api/surat/${id}`, { token: h.sek.token })).body;
    for (const id of [submitted.id, processing.id]) {
      const cancelled = await letterOf(id);
      expect(cancelled.status).toBe("dibatalkan");
      expect(cancelled.history?.at(-1)).toMatchObject({ status: "dibatalkan", byStaff: true });
    }
    expect((await letterOf(finished.id)).status).toBe("selesai");

    // Registry records stay: the family card and its people are the registry's own record.
    expect((await call(`/api/kependudukan/kk/${h.kkId}`, { token: h.sek.token })).status).toBe(200);

    const trail = await auditTrail(h.admin.token);
    const actions = trail.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["visitor.revoke_member", "surat.dibatalkan", "member.remove"]),
    );
    expect(trail.find((e) => e.action === "member.remove")).toMatchObject({
      targetId: h.warga.id,
      detail: { roles: [], unitId: h.unitId, personId: h.headMemberId },
    });
    expectProblem(await removeMember(h.admin.token, h.warga.id), 404, "not_found");
  });

  it("can invite a removed person again: their account gets a join link, and accepting makes them a member", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const sek = await tenant.member("sekretaris");
    expect((await removeMember(admin.token, sek.id)).status).toBe(204);
    const res = await invite(admin.token, {
      name: "Sekretaris Lama",
      email: sek.email,
      roles: ["sekretaris"],
    });
    expect(res.status).toBe(202);
    const [link] = await queuedMessages({ recipient: sek.email });
    expect(JSON.stringify(link?.payload)).toContain("/join?token=");
    const accepted = await callJson("/api/auth/join/accept", {
      body: { token: tokenIn(link ?? ({ payload: {} } as never)) },
    });
    expect(accepted.status).toBe(200);
    expect((await allMembers(admin.token)).find((m) => m.userId === sek.id)?.roles).toEqual(["sekretaris"]);
    expect((await call("/api/members", { token: await login(sek.email, tenant.slug) })).status).toBe(200);
  });

  it("leaves the person's other communities alone", async () => {
    const tenantA = await createTenant();
    const tenantB = await createTenant();
    const adminA = await tenantA.member("admin");
    const member = await tenantA.member("bendahara");
    await platformDb(bindings)
      .insert(memberships)
      .values({ id: newId(), userId: member.id, tenantId: tenantB.id, roles: ["sekretaris"] });
    const inB = await login(member.email, tenantB.slug);
    expect((await removeMember(adminA.token, member.id)).status).toBe(204);
    expectProblem(await callJson("/api/members", { token: member.token }), 401, "session_revoked");
    expect((await call("/api/members", { token: inB })).status).toBe(200);
  });

  it("answers 404 for another community's member, and to another community's admin", async () => {
    const tenantA = await createTenant();
    const tenantB = await createTenant();
    const adminA = await tenantA.member("admin");
    const adminB = await tenantB.member("admin");
    const memberB = await tenantB.member("warga");
    expectProblem(await removeMember(adminA.token, memberB.id), 404, "not_found");
    expectProblem(await removeMember(adminB.token, adminA.id), 404, "not_found");
    expectProblem(await removeMember(adminA.token, newId()), 404, "not_found");
    expect((await call("/api/user/me", { token: memberB.token })).status).toBe(200);
  });
});

describe("the last admin", () => {
  it("cannot be removed (409 last_admin), and can step down once another admin is appointed", async () => {
    const tenant = await createTenant();
    const admin = await soleAdmin(tenant);
    expectProblem(await removeMember(admin.token, admin.id), 409, "last_admin");
    expect((await call("/api/members", { token: admin.token })).status).toBe(200);
    const next = await tenant.member("sekretaris");
    expect((await setRoles(admin.token, next.id, ["sekretaris", "admin"])).status).toBe(200);
    expect((await removeMember(admin.token, admin.id)).status).toBe(204);
    expectProblem(await callJson("/api/members", { token: admin.token }), 401, "session_revoked");
    expect(await allMembers(next.token, "?role=admin")).toEqual([
      expect.objectContaining({ userId: next.id }),
    ]);
  });

  it("two admins demoting each other at the same moment leave one admin, not zero", async () => {
    const tenant = await createTenant();
    const first = await soleAdmin(tenant, { unitId: "unit-a" });
    const second = await tenant.member("admin", { unitId: "unit-b" });
    const firstCtx = await memberCtx(tenant.slug, first, "admin");
    const secondCtx = await memberCtx(tenant.slug, second, "admin");
    // Both read "another admin remains"; the second's demotion of the first lands just before the
    // first's batch, whose guarded UPDATE then finds no other admin and changes nothing.
    const raced = rivalFirst(firstCtx, () =>
      setMemberRoles({ ctx: secondCtx, id: first.id, input: { roles: ["sekretaris"] } }),
    );
    await expect(setMemberRoles({ ctx: raced, id: second.id, input: { roles: [] } })).rejects.toMatchObject({
      code: "last_admin",
    });
    const admins = await allMembers(second.token, "?role=admin");
    expect(admins.map((m) => m.userId)).toEqual([second.id]);
    expect((await auditTrail(second.token, "action=member.roles")).map((e) => e.targetId)).toEqual([
      first.id,
    ]);
  });

  it("two admins removing each other at the same moment leave one admin, not zero", async () => {
    const tenant = await createTenant();
    const first = await soleAdmin(tenant);
    const second = await tenant.member("admin");
    const firstCtx = await memberCtx(tenant.slug, first, "admin");
    const secondCtx = await memberCtx(tenant.slug, second, "admin");
    const raced = rivalFirst(firstCtx, () => removeVerb({ ctx: secondCtx, id: first.id }));
    await expect(removeVerb({ ctx: raced, id: second.id })).rejects.toMatchObject({ code: "last_admin" });
    const admins = await allMembers(second.token, "?role=admin");
    expect(admins.map((m) => m.userId)).toEqual([second.id]);
    const removals = (await auditTrail(second.token, "action=member.remove")).map((e) => e.targetId);
    expect(removals).toContain(first.id);
    expect(removals).not.toContain(second.id);
  });

  it("keeps an admin when two admins demote each other through the API at once", async () => {
    const tenant = await createTenant();
    const first = await soleAdmin(tenant, { unitId: "unit-a" });
    const second = await tenant.member("admin", { unitId: "unit-b" });
    const answers = await Promise.all([
      setRoles(first.token, second.id, []),
      setRoles(second.token, first.id, []),
    ]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    // The loser is refused by the rule, or (its sign-in ended by the winner's demotion) by the guard.
    for (const loser of answers.filter((a) => a.status !== 200)) {
      expect([
        [409, "last_admin"],
        [401, "session_revoked"],
      ]).toContainEqual([loser.status, (loser.body as { code?: string }).code]);
    }
    const winner = answers[0]?.status === 200 ? first : second;
    expect((await allMembers(winner.token, "?role=admin")).map((m) => m.userId)).toEqual([winner.id]);
  });
});
